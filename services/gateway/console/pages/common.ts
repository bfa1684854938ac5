import { ApiError } from "../api.ts";
import type { Role } from "../context.ts";
import { h, notice } from "../dom.ts";

/** What a person whose role may not change a page is told on it. */
export const readOnly = (role: Role, needed: Role) =>
  h(
    "p",
    { class: "muted", role: "note" },
    `Your role (${role}) can read this page; changing it takes the role ${needed}.`,
  );

/** An error as a person reads it: the API's message and each field's complaint. */
export const errorNotice = (error: unknown) =>
  notice(error instanceof ApiError ? error.describe() : String(error), "error");

/**
 * Runs a change, showing its error in `status` (and nothing else) if it fails; answers whether it worked.
 * The button that started it is disabled meanwhile, so a double click does not send it twice.
 */
export async function attempt(status: HTMLElement, button: HTMLButtonElement | null, change: () => Promise<void>) {
  status.replaceChildren();
  if (button) button.disabled = true;
  try {
    await change();
    return true;
  } catch (error) {
    status.replaceChildren(errorNotice(error));
    return false;
  } finally {
    if (button) button.disabled = false;
  }
}

/** A secret shown once: a read-only field with its label, a Copy button and the warning. */
export function secretOnce(label: string, secret: string, what: string) {
  const id = `secret-${Math.random().toString(36).slice(2)}`;
  const input = h("input", { id, class: "secret", type: "text", readonly: true, value: secret, spellcheck: "false" });
  const copied = h("span", { role: "status", class: "muted" });
  const copy = h(
    "button",
    {
      type: "button",
      onclick: async () => {
        input.select();
        try {
          await navigator.clipboard.writeText(secret);
          copied.textContent = "Copied.";
        } catch {
          copied.textContent = "Select the text and copy it yourself: the browser refused.";
        }
      },
    },
    "Copy",
  );
  return h(
    "div",
    { class: "panel" },
    h("p", { class: "warning", role: "alert" }, `Copy ${what} now: it will not be shown again.`),
    h("div", { class: "field" }, h("label", { for: id }, label), h("div", { class: "actions" }, input, copy, copied)),
  );
}
