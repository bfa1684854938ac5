import { call, get, orgPath, withQuery } from "../api.ts";
import { may, type Page } from "../context.ts";
import { fill, h, numberCell, table, value } from "../dom.ts";
import { count } from "../exact-usd.ts";
import { attempt, readOnly } from "./common.ts";
import { priceForm } from "./price-form.ts";

interface UnpricedModel {
  provider: string;
  model: string;
  model_tier: string | null;
  reason: string;
  transactions: number;
}

interface RepriceAnswer {
  examined: number;
  priced: Array<{ message_id: string; model: string; cost_usd: string }>;
  still_unpriced: Array<{ message_id: string; reason: string }>;
}

const DAYS = 90;

/**
 * Unpriced: the models with transactions and no price (GET /usage/unpriced, the last 90 days), a price
 * form for any of them, and Reprice (POST /v1/orgs/{org}/reprice), which prices the unpriced records
 * again with the prices now in place.
 */
export const unpricedPage: Page = async ({ org }, into) => {
  const canChange = may(org.role, "admin");
  const status = h("div");
  const formSlot = h("div");
  const list = h("div");

  async function load() {
    const answer = await get<{ unpriced: UnpricedModel[] }>(
      withQuery("/usage/unpriced", { org: org.id, from: new Date(Date.now() - DAYS * 86_400_000).toISOString() }),
    );
    fill(
      list,
      answer.unpriced.length === 0
        ? h("p", {}, `Every transaction of the last ${DAYS} days has a price.`)
        : table(
            "Unpriced models",
            ["Provider", "Model", "Tier", "Why", ["Transactions", "number"], ...(canChange ? ["Price"] : [])],
            answer.unpriced.map((entry) => [
              value(entry.provider),
              value(entry.model),
              value(entry.model_tier),
              entry.reason,
              numberCell(count(entry.transactions)),
              ...(canChange ? [addPrice(entry)] : []),
            ]),
          ),
    );
  }

  function addPrice(entry: UnpricedModel) {
    return h(
      "button",
      {
        type: "button",
        "aria-label": `Add price for ${entry.model}`,
        onclick: () => {
          const form = priceForm(org.id, entry, async () => {
            fill(formSlot, h("p", { role: "status" }, `Price added for ${entry.model}. Reprice to price its records.`));
          });
          fill(formSlot, form);
          (form.querySelector("input[name=input_mtok]") as HTMLInputElement).focus();
        },
      },
      "Add price",
    );
  }

  const reprice: HTMLButtonElement = h(
    "button",
    {
      type: "button",
      class: "primary",
      onclick: () =>
        void attempt(status, reprice, async () => {
          const result = await call<RepriceAnswer>("POST", orgPath(org.id, "/reprice"), { body: {} });
          status.replaceChildren(
            h(
              "p",
              { role: "status" },
              `Repriced: ${count(result.priced.length)} of ${count(result.examined)} examined are priced now; ${count(result.still_unpriced.length)} still unpriced.`,
            ),
          );
          await load();
        }),
    },
    "Reprice",
  );

  fill(
    into,
    h("h1", {}, "Unpriced"),
    h(
      "p",
      { class: "muted" },
      `Models of the last ${DAYS} days with transactions and no price. Add a price, then reprice: each record is priced with the prices in force when it was received.`,
    ),
    list,
    formSlot,
    canChange ? h("div", { class: "actions" }, reprice) : readOnly(org.role, "admin"),
    status,
  );
  await load();
};
