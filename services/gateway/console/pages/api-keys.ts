import { call, get, orgPath } from "../api.ts";
import { may, type Page } from "../context.ts";
import { field, fill, h, select, table, time, value } from "../dom.ts";
import { attempt, readOnly, secretOnce } from "./common.ts";

interface ApiKey {
  id: string;
  name: string | null;
  prefix: string;
  scope: string;
  status: "active" | "disabled";
  created_at: string | null;
  created_by: { type: string; id: string } | null;
  last_used_at: string | null;
}

const SCOPES: Array<[string, string]> = [
  ["ingest", "ingest: send usage"],
  ["read", "read: read costs and records"],
  ["admin", "admin: manage this organization"],
];

/**
 * Settings, then API Keys: the keys (never a secret), Create New Key (the secret shown once, with Copy),
 * disable and enable. A viewer sees the list only.
 */
export const apiKeysPage: Page = async ({ org }, into) => {
  const canChange = may(org.role, "admin");
  const status = h("div");
  const created = h("div");
  const list = h("div");
  const path = orgPath(org.id, "/api-keys");

  async function load() {
    const { api_keys: keys } = await get<{ api_keys: ApiKey[] }>(`${path}?limit=1000`);
    fill(
      list,
      keys.length === 0
        ? h("p", {}, "No keys yet.")
        : table(
            "API keys",
            [
              "Name",
              "Prefix",
              "Scope",
              "Status",
              "Created",
              "Created by",
              "Last used",
              ...(canChange ? ["Actions"] : []),
            ],
            keys.map((key) => [
              value(key.name ?? ""),
              h("code", {}, key.prefix),
              key.scope,
              key.status,
              time(key.created_at),
              key.created_by ? [`${key.created_by.type} `, value(key.created_by.id)] : "",
              time(key.last_used_at),
              ...(canChange ? [toggle(key)] : []),
            ]),
          ),
    );
  }

  function toggle(key: ApiKey) {
    const next = key.status === "active" ? "disabled" : "active";
    const label = key.status === "active" ? "Disable" : "Enable";
    const button: HTMLButtonElement = h(
      "button",
      {
        type: "button",
        class: key.status === "active" ? "danger" : null,
        "aria-label": `${label} key ${key.name ?? key.prefix}`,
        onclick: () =>
          void attempt(status, button, async () => {
            await call("PATCH", `${path}/${encodeURIComponent(key.id)}`, { body: { status: next } });
            await load();
          }),
      },
      label,
    );
    return button;
  }

  function createForm() {
    const name = h("input", { name: "name", required: true, maxlength: 100, autocomplete: "off" });
    const scope = select("scope", SCOPES, "ingest");
    const submit = h("button", { type: "submit", class: "primary" }, "Create");
    const form: HTMLFormElement = h(
      "form",
      {
        class: "panel",
        hidden: true,
        "aria-label": "Create a key",
        onsubmit: (event: Event) => {
          event.preventDefault();
          void attempt(status, submit, async () => {
            const answer = await call<{ api_key: ApiKey; secret: string }>("POST", path, {
              body: { name: name.value, scope: scope.value },
            });
            form.hidden = true;
            form.reset();
            fill(created, secretOnce("New key", answer.secret, "this key"));
            (created.querySelector("input") as HTMLInputElement).focus();
            await load();
          });
        },
      },
      h("div", { class: "fields" }, field("Name", name), field("Scope", scope)),
      h(
        "div",
        { class: "actions" },
        submit,
        h(
          "button",
          {
            type: "button",
            onclick: () => {
              form.hidden = true;
            },
          },
          "Cancel",
        ),
      ),
    );
    const open = h(
      "button",
      {
        type: "button",
        class: "primary",
        onclick: () => {
          form.hidden = false;
          fill(created);
          name.focus();
        },
      },
      "Create New Key",
    );
    return [h("div", { class: "actions" }, open), form];
  }

  fill(
    into,
    h("h1", {}, "API Keys"),
    h(
      "p",
      { class: "muted" },
      "Programs send a key in the X-Api-Key header: ingest keys send usage, read keys read costs, admin keys manage the organization.",
    ),
    canChange ? createForm() : readOnly(org.role, "admin"),
    created,
    status,
    list,
  );
  await load();
};
