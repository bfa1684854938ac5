import type { PageContext } from "../context.ts";
import { field, h, select } from "../dom.ts";
import { VENDORS } from "../vendors.ts";

/** Days the page shows by default, ending with today: as `GET /usage/reconciliation` does. */
const DEFAULT_DAYS = 31;
const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The page's query: whole UTC days (`toDay` included, as people say it), a vendor and a model. */
export interface ReconciliationQuery {
  fromDay: string;
  toDay: string;
  provider: string;
  model: string;
}

export const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);
const dayAt = (day: string) => Date.parse(`${day}T00:00:00Z`);
/** The UTC day after `day`: the API's excluded end. */
export const dayAfter = (day: string) => utcDay(dayAt(day) + DAY_MS);

/** The query the address holds; the last 31 UTC days with today when it holds none. */
export function reconciliationQueryOf(params: URLSearchParams, now = Date.now()): ReconciliationQuery {
  const today = utcDay(now);
  const asked = (name: string) => {
    const text = params.get(name) ?? "";
    return DAY.test(text) && !Number.isNaN(dayAt(text)) ? text : undefined;
  };
  let fromDay = asked("from") ?? utcDay(dayAt(today) - (DEFAULT_DAYS - 1) * DAY_MS);
  let toDay = asked("to") ?? today;
  if (toDay < fromDay) [fromDay, toDay] = [toDay, fromDay];
  const provider = params.get("provider") ?? "";
  return {
    fromDay,
    toDay,
    provider: (VENDORS as readonly string[]).includes(provider) ? provider : "",
    model: (params.get("model") ?? "").slice(0, 256),
  };
}

/** The days, the vendor and the model, and Apply: applying writes them to the address the page reads. */
export function reconciliationControls(context: PageContext, query: ReconciliationQuery) {
  const from = h("input", { type: "date", name: "from", value: query.fromDay, required: true });
  const to = h("input", { type: "date", name: "to", value: query.toDay, required: true });
  const provider = select(
    "provider",
    [["", "any"], ...VENDORS.map((vendor): [string, string] => [vendor, vendor])],
    query.provider,
  );
  const model = h("input", { name: "model", value: query.model, maxlength: 256, autocomplete: "off" });
  return h(
    "form",
    {
      class: "panel",
      "aria-label": "Reconciliation",
      onsubmit: (event: Event) => {
        event.preventDefault();
        context.go({
          from: from.value,
          to: to.value,
          provider: provider.value,
          model: model.value.trim(),
          run: undefined,
        });
      },
    },
    h(
      "div",
      { class: "fields" },
      field("From (UTC day)", from),
      field("To (UTC day, inclusive)", to, "At most 92 days"),
      field("Provider", provider),
      field("Model", model, "As we or the vendor name it"),
    ),
    h("div", { class: "actions" }, h("button", { type: "submit", class: "primary" }, "Apply")),
  );
}
