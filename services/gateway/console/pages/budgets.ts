import { call, get, orgPath } from "../api.ts";
import { may, type Page } from "../context.ts";
import { field, fill, h, numberCell, select, table, value } from "../dom.ts";
import { exactUsd } from "../exact-usd.ts";
import { timeZone } from "../range.ts";
import { attempt, readOnly } from "./common.ts";

interface Scope {
  customer?: string;
  provider?: string;
  model?: string;
  dimension?: { name: string; value: string };
}

interface Budget {
  id: string;
  name?: string | null;
  scope: Scope;
  amount_usd: string;
  period: string;
  time_zone: string;
  thresholds: number[];
  etag: string;
  spent_usd?: string;
  percent?: string;
  thresholds_crossed?: number[];
  forecast_usd?: string | null;
}

const PERIODS: Array<[string, string]> = [
  ["day", "day"],
  ["week", "week (Monday to Monday)"],
  ["month", "month"],
  ["7d", "rolling 7 days"],
  ["30d", "rolling 30 days"],
];

export const scopeText = (scope: Scope) => {
  const parts = [
    scope.customer !== undefined ? `customer ${scope.customer}` : "",
    scope.provider !== undefined ? `provider ${scope.provider}` : "",
    scope.model !== undefined ? `model ${scope.model}` : "",
    scope.dimension ? `${scope.dimension.name} ${scope.dimension.value}` : "",
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : "whole organization";
};

/**
 * Budgets: each with its status now (spent, percent, thresholds crossed, forecast), and for an admin a
 * form to create one or edit it (If-Match with its etag: two people editing one budget cannot silently
 * overwrite each other) and delete.
 */
export const budgetsPage: Page = async ({ org }, into) => {
  const canChange = may(org.role, "admin");
  const path = orgPath(org.id, "/budgets");
  const status = h("div");
  const formSlot = h("div");
  const list = h("div");
  const { dimensions } = await get<{ dimensions: string[] }>(orgPath(org.id));

  function budgetForm(existing?: Budget) {
    const name = h("input", { name: "name", maxlength: 200, value: existing?.name ?? "", autocomplete: "off" });
    const amount = h("input", {
      name: "amount_usd",
      required: true,
      inputmode: "decimal",
      value: existing?.amount_usd ?? "",
    });
    const period = select("period", PERIODS, existing?.period ?? "month");
    const zone = h("input", { name: "time_zone", value: existing?.time_zone ?? timeZone(), autocomplete: "off" });
    const thresholds = h("input", { name: "thresholds", value: (existing?.thresholds ?? [50, 80, 100]).join(", ") });
    const customer = h("input", { name: "customer", value: existing?.scope.customer ?? "", autocomplete: "off" });
    const provider = h("input", { name: "provider", value: existing?.scope.provider ?? "", autocomplete: "off" });
    const model = h("input", { name: "model", value: existing?.scope.model ?? "", autocomplete: "off" });
    const dimension = select(
      "dimension",
      [["", "none"], ...dimensions.map((each): [string, string] => [each, each])],
      existing?.scope.dimension?.name ?? "",
    );
    const dimensionValue = h("input", {
      name: "dimension_value",
      value: existing?.scope.dimension?.value ?? "",
      autocomplete: "off",
    });
    const submit = h("button", { type: "submit", class: "primary" }, existing ? "Save budget" : "Create budget");
    return h(
      "form",
      {
        class: "panel",
        "aria-label": existing ? `Edit budget ${existing.name ?? existing.id}` : "New budget",
        onsubmit: (event: Event) => {
          event.preventDefault();
          const scope: Scope = {};
          if (customer.value.trim()) scope.customer = customer.value.trim();
          if (provider.value.trim()) scope.provider = provider.value.trim();
          if (model.value.trim()) scope.model = model.value.trim();
          if (dimension.value) scope.dimension = { name: dimension.value, value: dimensionValue.value };
          const body = {
            ...(name.value.trim() ? { name: name.value.trim() } : {}),
            amount_usd: amount.value.trim(),
            period: period.value,
            time_zone: zone.value.trim(),
            thresholds: thresholds.value
              .split(",")
              .map((each) => Number(each.trim()))
              .filter((each) => each > 0),
            scope,
          };
          void attempt(status, submit, async () => {
            if (existing)
              await call("PATCH", `${path}/${encodeURIComponent(existing.id)}`, {
                body,
                headers: { "If-Match": `"${existing.etag}"` },
              });
            else await call("POST", path, { body });
            fill(formSlot);
            await load();
          });
        },
      },
      h(
        "div",
        { class: "fields" },
        field("Name", name),
        field("Amount (USD)", amount),
        field("Period", period),
        field("Time zone", zone),
        field("Thresholds (%)", thresholds, "comma separated"),
      ),
      h("h3", {}, "Scope (empty: the whole organization)"),
      h(
        "div",
        { class: "fields" },
        field("Customer", customer),
        field("Provider", provider),
        field("Model", model),
        field("Dimension", dimension),
        field("Dimension value", dimensionValue),
      ),
      h("div", { class: "actions" }, submit, h("button", { type: "button", onclick: () => fill(formSlot) }, "Cancel")),
    );
  }

  function actions(budget: Budget) {
    const label = budget.name ?? budget.id;
    const remove: HTMLButtonElement = h(
      "button",
      {
        type: "button",
        class: "danger",
        "aria-label": `Delete budget ${label}`,
        onclick: () =>
          void attempt(status, remove, async () => {
            await call("DELETE", `${path}/${encodeURIComponent(budget.id)}`, {
              headers: { "If-Match": `"${budget.etag}"` },
            });
            await load();
          }),
      },
      "Delete",
    );
    return h(
      "td",
      {},
      h(
        "div",
        { class: "actions" },
        h(
          "button",
          { type: "button", "aria-label": `Edit budget ${label}`, onclick: () => fill(formSlot, budgetForm(budget)) },
          "Edit",
        ),
        remove,
      ),
    );
  }

  async function load() {
    const { budgets } = await get<{ budgets: Budget[] }>(`${path}?limit=1000`);
    fill(
      list,
      budgets.length === 0
        ? h("p", {}, "No budgets yet.")
        : table(
            "Budgets",
            [
              "Name",
              "Scope",
              "Period",
              ["Amount (USD)", "number"],
              ["Spent (USD)", "number"],
              ["Used", "number"],
              "Thresholds crossed",
              ["Forecast (USD)", "number"],
              ...(canChange ? ["Actions"] : []),
            ],
            budgets.map((budget) => [
              value(budget.name ?? budget.id),
              value(scopeText(budget.scope)),
              `${budget.period}, ${budget.time_zone}`,
              numberCell(exactUsd(budget.amount_usd)),
              numberCell(exactUsd(budget.spent_usd ?? "")),
              numberCell(budget.percent === undefined ? "" : `${budget.percent}%`),
              (budget.thresholds_crossed ?? []).map((each) => `${each}%`).join(", ") || "none",
              numberCell(budget.forecast_usd ? exactUsd(budget.forecast_usd) : "not yet"),
              ...(canChange ? [actions(budget)] : []),
            ]),
          ),
    );
  }

  fill(
    into,
    h("h1", {}, "Budgets"),
    canChange
      ? h(
          "div",
          { class: "actions" },
          h("button", { type: "button", class: "primary", onclick: () => fill(formSlot, budgetForm()) }, "New budget"),
        )
      : readOnly(org.role, "admin"),
    formSlot,
    status,
    list,
  );
  await load();
};
