import { call, orgPath } from "../api.ts";
import { field, h } from "../dom.ts";
import { attempt } from "./common.ts";

/** The components the form offers (docs/pricing.md has them all), USD per the unit named. */
const COMPONENTS: Array<[key: string, label: string]> = [
  ["input_mtok", "Input, per million tokens"],
  ["output_mtok", "Output, per million tokens"],
  ["cache_read_mtok", "Cached input, per million tokens"],
  ["unit", "Per custom unit"],
  ["per_request", "Per request"],
];

/**
 * A price for one model (`POST /v1/orgs/{org}/prices`): provider, model, tier, from when, and the rates
 * filled in (exact decimals, as the API takes them). Answers the form; `done` runs once it is stored.
 */
export function priceForm(
  org: string,
  preset: { provider?: string; model?: string; model_tier?: string | null },
  done: () => Promise<void>,
  label = "Add a price",
) {
  const status = h("div");
  const provider = h("input", {
    name: "provider",
    required: true,
    value: preset.provider ?? "custom",
    autocomplete: "off",
  });
  const model = h("input", { name: "model", required: true, value: preset.model ?? "", autocomplete: "off" });
  const tier = h("input", { name: "model_tier", value: preset.model_tier ?? "", autocomplete: "off" });
  const from = h("input", { name: "effective_from", type: "datetime-local" });
  const rates = COMPONENTS.map(([key, text]) => ({
    key,
    input: h("input", { name: key, inputmode: "decimal", autocomplete: "off", placeholder: "0.00" }),
    text,
  }));
  const submit = h("button", { type: "submit", class: "primary" }, "Add price");
  const form: HTMLFormElement = h(
    "form",
    {
      class: "panel",
      "aria-label": label,
      onsubmit: (event: Event) => {
        event.preventDefault();
        const body: Record<string, unknown> = { provider: provider.value.trim(), model: model.value.trim() };
        if (tier.value.trim()) body.model_tier = tier.value.trim();
        if (from.value) body.effective_from = new Date(from.value).toISOString();
        for (const rate of rates) {
          const amount = rate.input.value.trim();
          if (!amount) continue;
          body[rate.key] = rate.key === "per_request" ? { default: amount } : amount;
        }
        void attempt(status, submit, async () => {
          await call("POST", orgPath(org, "/prices"), { body });
          form.reset();
          await done();
        });
      },
    },
    h(
      "div",
      { class: "fields" },
      field("Provider", provider),
      field("Model", model),
      field("Tier", tier, "empty: no tier"),
    ),
    h("div", { class: "fields" }, field("Effective from", from, "your local time; empty: always")),
    h(
      "div",
      { class: "fields" },
      rates.map((rate) => field(rate.text, rate.input)),
    ),
    h("div", { class: "actions" }, submit),
    status,
  );
  return form;
}
