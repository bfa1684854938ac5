import { ApiError, call, get, orgPath } from "../api.ts";
import { may, type Organization } from "../context.ts";
import { fill, h, notice, time } from "../dom.ts";
import {
  driftThresholdOf,
  driftThresholdText,
  percentText,
  plainDecimal,
  type ReconciliationSettings,
  SETTING_FIELDS,
  type SettingField,
  settingsBody,
  toleranceOf,
  toleranceText,
  usdText,
} from "../reconciliation-settings.ts";
import { errorNotice, readOnly } from "./common.ts";

const LABELS: Record<SettingField, [label: string, hint: string]> = {
  tolerance_percent: ["Tolerance (%)", "0 to 100, at most 4 decimal places; empty: 1"],
  tolerance_usd: ["Tolerance (USD)", "0 to 1000000, at most 9 decimal places; empty: 0.01"],
  drift_threshold_percent: ["Drift threshold (%)", "0 to 100, at most 4 decimal places; empty: 1"],
  drift_threshold_usd: ["Drift threshold (USD)", "0 to 1000000, at most 9 decimal places; empty: 0.01"],
};

const typedOf = (settings: ReconciliationSettings, name: SettingField) => {
  const setting = settings[name];
  return typeof setting === "number" ? String(setting) : plainDecimal(setting);
};
const shownOf = (settings: ReconciliationSettings, name: SettingField) => {
  const setting = settings[name];
  return typeof setting === "number" ? percentText(setting) : usdText(setting);
};

/** The rules the organization's settings make, as the page states them (never a fixed text). */
export const settingsStatement = (settings: ReconciliationSettings) =>
  h(
    "p",
    { id: "reconciliation-rules" },
    `A row is matched with ${toleranceText(toleranceOf(settings))}. A day is past the drift threshold, and alerted, when its total ${driftThresholdText(driftThresholdOf(settings))}. `,
    settings.updated_at
      ? h("span", { class: "muted" }, "Set ", time(settings.updated_at), ".")
      : h("span", { class: "muted" }, "These are the defaults."),
  );

/** One setting's control, its hint and the place its error is said, all tied to it. */
function settingField(name: SettingField, typed: string) {
  const [label, hint] = LABELS[name];
  const id = `setting-${name}`;
  const input = h("input", {
    id,
    name,
    value: typed,
    inputmode: "decimal",
    autocomplete: "off",
    "aria-describedby": `${id}-hint ${id}-error`,
  });
  const error = h("small", { id: `${id}-error`, class: "error" });
  const element = h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    input,
    h("small", { id: `${id}-hint` }, hint),
    error,
  );
  const complain = (message: string | undefined) => {
    error.textContent = message ?? "";
    if (message) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  };
  return { input, element, complain };
}

/**
 * The organization's tolerance and drift threshold: for an admin a form (`PUT
 * .../reconciliation/settings`, If-Match with the etag read, so that two people changing them at once
 * cannot overwrite each other), each field's error said beside it; for a viewer the values, read-only.
 * `changed` is told the settings whenever they are read again or saved.
 */
export function settingsPanel(
  org: Organization,
  initial: ReconciliationSettings,
  changed: (settings: ReconciliationSettings) => void,
): HTMLElement {
  const path = orgPath(org.id, "/reconciliation/settings");
  const panel = h(
    "section",
    { class: "panel", "aria-labelledby": "tolerance-heading" },
    h("h2", { id: "tolerance-heading" }, "Tolerance and drift threshold"),
    h(
      "p",
      { class: "muted" },
      "A run classes the rows of the days it reads with the settings of when it starts: rows already stored keep their class until a run reads their days again.",
    ),
  );
  if (!may(org.role, "admin")) {
    panel.append(
      h(
        "dl",
        { class: "facts" },
        SETTING_FIELDS.map((name) => [h("dt", {}, LABELS[name][0]), h("dd", {}, shownOf(initial, name))]),
      ),
      readOnly(org.role, "admin"),
    );
    return panel;
  }

  let current = initial;
  const fields = SETTING_FIELDS.map((name) => ({ name, ...settingField(name, typedOf(initial, name)) }));
  const status = h("div");
  const show = (settings: ReconciliationSettings) => {
    current = settings;
    for (const each of fields) {
      each.input.value = typedOf(settings, each.name);
      each.complain(undefined);
    }
    changed(settings);
  };
  const submit = h("button", { type: "submit", class: "primary" }, "Save settings");
  const save = async () => {
    for (const each of fields) each.complain(undefined);
    const typed = Object.fromEntries(fields.map((each) => [each.name, each.input.value])) as Record<
      SettingField,
      string
    >;
    try {
      const saved = await call<ReconciliationSettings>("PUT", path, {
        body: settingsBody(typed),
        headers: { "If-Match": `"${current.etag}"` },
      });
      show(saved);
      fill(status, notice("Saved. The next run over a day classes its rows and judges its drift with these."));
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        show(await get<ReconciliationSettings>(path));
        fill(
          status,
          notice(
            "Someone else changed these settings since this page read them: the form now shows theirs. Make your change again if it still stands.",
            "error",
          ),
        );
        return;
      }
      const beside = error instanceof ApiError ? error.details.filter((detail) => detail.field) : [];
      const marked = fields.filter((each) => {
        const detail = beside.find((one) => one.field === each.name);
        each.complain(detail?.message ?? detail?.code);
        return detail !== undefined;
      });
      if (marked.length > 0) {
        fill(status, notice("Not saved: see the fields marked.", "error"));
        marked[0]?.input.focus();
      } else fill(status, errorNotice(error));
    }
  };
  panel.append(
    h(
      "form",
      {
        "aria-label": "Tolerance and drift threshold",
        novalidate: true,
        onsubmit: (event: Event) => {
          event.preventDefault();
          submit.disabled = true;
          status.replaceChildren();
          void save()
            .catch((error: unknown) => fill(status, errorNotice(error)))
            .finally(() => {
              submit.disabled = false;
            });
        },
      },
      h(
        "div",
        { class: "fields" },
        fields.map((each) => each.element),
      ),
      h("div", { class: "actions" }, submit),
      status,
    ),
  );
  return panel;
}
