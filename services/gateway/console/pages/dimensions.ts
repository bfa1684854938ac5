import { call, get, orgPath } from "../api.ts";
import { may, type Page } from "../context.ts";
import { field, fill, h } from "../dom.ts";
import { attempt, readOnly } from "./common.ts";

/**
 * Dimensions: the `context` keys the reports group and filter on (`PUT /v1/orgs/{org}/dimensions`, the
 * rules of `admin org dimensions set`); an admin changes the list.
 */
export const dimensionsPage: Page = async ({ org }, into) => {
  const canChange = may(org.role, "admin");
  const path = orgPath(org.id, "/dimensions");
  const { dimensions } = await get<{ dimensions: string[] }>(path);
  const status = h("div");
  const current = h(
    "ul",
    {},
    dimensions.map((name) => h("li", {}, h("code", {}, name))),
  );
  const input = h("input", { name: "dimensions", value: dimensions.join(", "), autocomplete: "off" });
  const submit = h("button", { type: "submit", class: "primary" }, "Save dimensions");
  const form = h(
    "form",
    {
      class: "panel",
      "aria-label": "Declared dimensions",
      onsubmit: (event: Event) => {
        event.preventDefault();
        const names = input.value
          .split(",")
          .map((name) => name.trim())
          .filter(Boolean);
        void attempt(status, submit, async () => {
          const saved = await call<{ dimensions: string[] }>("PUT", path, { body: { dimensions: names } });
          fill(
            current,
            saved.dimensions.map((name) => h("li", {}, h("code", {}, name))),
          );
          status.replaceChildren(h("p", { role: "status" }, "Saved."));
        });
      },
    },
    field("Dimensions", input, "context keys, comma separated"),
    h("div", { class: "actions" }, submit),
  );
  fill(
    into,
    h("h1", {}, "Dimensions"),
    h(
      "p",
      { class: "muted" },
      "The context keys Costs and Transactions group and filter on, and budgets can scope to.",
    ),
    dimensions.length === 0 ? h("p", {}, "None declared.") : current,
    canChange ? form : readOnly(org.role, "admin"),
    status,
  );
};
