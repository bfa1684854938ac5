import { call, get, orgPath } from "../api.ts";
import { may, type Page } from "../context.ts";
import { fill, h, table, time, value } from "../dom.ts";
import { attempt, readOnly } from "./common.ts";
import { priceForm } from "./price-form.ts";

interface Price {
  id: string;
  etag: string;
  provider: string;
  model: string;
  model_tier?: string | null;
  effective_from?: string | null;
  [component: string]: unknown;
}

const NOT_RATES = new Set([
  "id",
  "etag",
  "provider",
  "model",
  "model_tier",
  "effective_from",
  "created_at",
  "updated_at",
]);

/** The rates of a price, `component: USD` each (per_request by request type). */
const ratesOf = (price: Price) =>
  Object.entries(price)
    .filter(([key]) => !NOT_RATES.has(key))
    .map(([key, rate]) => `${key}: ${typeof rate === "object" ? JSON.stringify(rate) : String(rate)}`)
    .join("; ");

/**
 * Prices: the organization's own (for `custom` providers and overrides of the catalog), each from its
 * `effective_from`; an admin adds one and deletes one (If-Match with its etag).
 */
export const pricesPage: Page = async ({ org }, into) => {
  const canChange = may(org.role, "admin");
  const path = orgPath(org.id, "/prices");
  const status = h("div");
  const list = h("div");

  async function load() {
    const { prices } = await get<{ prices: Price[] }>(`${path}?limit=1000`);
    fill(
      list,
      prices.length === 0
        ? h("p", {}, "No prices of your own: transactions are priced from the platform's list and the catalog.")
        : table(
            "Prices",
            ["Provider", "Model", "Tier", "Effective from", "Rates (USD)", ...(canChange ? ["Actions"] : [])],
            prices.map((price) => {
              const remove: HTMLButtonElement = h(
                "button",
                {
                  type: "button",
                  class: "danger",
                  "aria-label": `Delete price of ${price.model}`,
                  onclick: () =>
                    void attempt(status, remove, async () => {
                      await call("DELETE", `${path}/${encodeURIComponent(price.id)}`, {
                        headers: { "If-Match": `"${price.etag}"` },
                      });
                      await load();
                    }),
                },
                "Delete",
              );
              return [
                value(price.provider),
                value(price.model),
                value(price.model_tier),
                price.effective_from ? time(price.effective_from) : "always",
                value(ratesOf(price)),
                ...(canChange ? [remove] : []),
              ];
            }),
          ),
    );
  }

  fill(
    into,
    h("h1", {}, "Prices"),
    h(
      "p",
      { class: "muted" },
      "Rates are USD per million tokens (*_mtok), per unit, per request. A price applies to transactions received from its effective time on.",
    ),
    canChange ? priceForm(org.id, {}, load) : readOnly(org.role, "admin"),
    status,
    list,
  );
  await load();
};
