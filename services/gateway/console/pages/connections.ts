import { call, get, orgPath } from "../api.ts";
import { may, type Page } from "../context.ts";
import { fill, h, table, time, value } from "../dom.ts";
import { attempt, readOnly } from "./common.ts";
import { connectionForm, mappingsText } from "./connection-form.ts";

interface Connection {
  vendor: string;
  status: string;
  created_at: string;
  last_run_at: string | null;
  last_error: string | null;
  mappings: Record<string, string>;
}

/**
 * Settings, then Connections: each vendor whose own reports the reconciliation reads (never its
 * credential); for an admin, connect one or replace its credential, and delete it.
 */
export const connectionsPage: Page = async ({ org }, into) => {
  const canChange = may(org.role, "admin");
  const path = orgPath(org.id, "/connections");
  const status = h("div");
  const list = h("div");
  const editor = canChange
    ? connectionForm(org.id, status, async (vendor) => {
        await load();
        status.replaceChildren(
          h("p", { role: "status" }, `Connected ${vendor}. The credential is stored sealed and is never shown again.`),
        );
      })
    : undefined;

  function actions(connection: Connection) {
    const replace = h(
      "button",
      {
        type: "button",
        "aria-label": `Replace credential of ${connection.vendor}`,
        onclick: () => editor?.replace(connection.vendor, connection.mappings),
      },
      "Replace credential",
    );
    const remove: HTMLButtonElement = h(
      "button",
      {
        type: "button",
        class: "danger",
        "aria-label": `Delete the connection to ${connection.vendor}`,
        onclick: () =>
          void attempt(status, remove, async () => {
            await call("DELETE", `${path}/${encodeURIComponent(connection.vendor)}`);
            await load();
            status.replaceChildren(h("p", { role: "status" }, `Deleted the connection to ${connection.vendor}.`));
          }),
      },
      "Delete",
    );
    return h("td", {}, h("div", { class: "actions" }, replace, remove));
  }

  async function load() {
    const { connections } = await get<{ connections: Connection[] }>(`${path}?limit=100`);
    fill(
      list,
      connections.length === 0
        ? h("p", {}, "No vendor is connected yet.")
        : table(
            "Connections",
            ["Vendor", "Status", "Connected", "Last run", "Last error", "Mappings", ...(canChange ? ["Actions"] : [])],
            connections.map((connection) => [
              connection.vendor,
              connection.status,
              time(connection.created_at),
              time(connection.last_run_at),
              connection.last_error ? value(connection.last_error) : h("span", { class: "muted" }, "none"),
              value(mappingsText(connection.mappings) || "none"),
              ...(canChange ? [actions(connection)] : []),
            ]),
          ),
    );
  }

  fill(
    into,
    h("h1", {}, "Connections"),
    h(
      "p",
      { class: "muted" },
      "The vendors whose own usage and cost reports the Reconciliation page puts beside ours. A credential is written once, stored sealed and never shown again; xAI and DeepSeek publish no per-model report.",
    ),
    editor ? editor.form : readOnly(org.role, "admin"),
    status,
    list,
  );
  await load();
};
