import { ApiError, call, orgPath } from "../api.ts";
import { field, h, select } from "../dom.ts";
import { VENDORS } from "../vendors.ts";
import { attempt } from "./common.ts";

/** What each vendor's credential is (the server checks its form, and says so when it is not). */
const CREDENTIALS: Record<string, string> = {
  openai: "An OpenAI organization admin key, sk-admin-…",
  anthropic: "An Anthropic Admin API key, sk-ant-admin…",
  gemini: "The Cloud Billing export's BigQuery table, project.dataset.table",
  bedrock: "An IAM role ARN to assume, or <access key id>:<secret access key>",
};

const MAPPING = /^([^=\s]+)\s*=\s*([^=\s]+)$/;

/** `project_id=team, api_key_id=feature` as the API's mappings; throws naming the part that is not one. */
export function mappingsOf(text: string): Record<string, string> {
  const mappings: Record<string, string> = {};
  for (const part of text
    .split(",")
    .map((each) => each.trim())
    .filter(Boolean)) {
    const match = MAPPING.exec(part);
    if (!match) {
      throw new ApiError(400, "validation_failed", `Mappings: "${part.slice(0, 64)}" is not vendor_id=dimension`);
    }
    mappings[match[1] as string] = match[2] as string;
  }
  return mappings;
}

export const mappingsText = (mappings: Record<string, string>) =>
  Object.entries(mappings)
    .map(([id, dimension]) => `${id}=${dimension}`)
    .join(", ");

/**
 * Connect a vendor, or replace its credential: `PUT .../connections/{vendor}`. The credential is typed in
 * a password field, sent once, and the field is emptied once the server has it: it is never shown again.
 */
export function connectionForm(org: string, status: HTMLElement, saved: (vendor: string) => Promise<void>) {
  const vendor = select(
    "vendor",
    VENDORS.map((each): [string, string] => [each, each]),
    "openai",
  );
  const credential = h("input", {
    name: "credential",
    type: "password",
    required: true,
    maxlength: 2048,
    autocomplete: "off",
    spellcheck: "false",
  });
  const hint = h("small", { id: "credential-hint" }, CREDENTIALS.openai);
  credential.id = "credential";
  credential.setAttribute("aria-describedby", hint.id);
  vendor.addEventListener("change", () => {
    hint.textContent = CREDENTIALS[vendor.value] ?? "";
  });
  const mappings = h("input", { name: "mappings", autocomplete: "off", placeholder: "project_id=team" });
  const submit = h("button", { type: "submit", class: "primary" }, "Save connection");
  const form: HTMLFormElement = h(
    "form",
    {
      class: "panel",
      "aria-label": "Connect a vendor",
      onsubmit: (event: Event) => {
        event.preventDefault();
        void attempt(status, submit, async () => {
          const chosen = vendor.value;
          const body = { credential: credential.value, mappings: mappingsOf(mappings.value) };
          await call("PUT", orgPath(org, `/connections/${encodeURIComponent(chosen)}`), { body });
          form.reset();
          hint.textContent = CREDENTIALS[vendor.value] ?? "";
          await saved(chosen);
        });
      },
    },
    h(
      "div",
      { class: "fields" },
      field("Vendor", vendor),
      h("div", { class: "field" }, h("label", { for: credential.id }, "Credential"), credential, hint),
      field("Mappings", mappings, "Optional: the vendor's ids to declared dimensions, e.g. project_id=team"),
    ),
    h("div", { class: "actions" }, submit),
  );
  /** Fills the form to replace one connection's credential, its mappings kept. */
  const replace = (chosen: string, current: Record<string, string>) => {
    vendor.value = chosen;
    hint.textContent = CREDENTIALS[chosen] ?? "";
    mappings.value = mappingsText(current);
    credential.value = "";
    credential.focus();
  };
  return { form, replace };
}
