import { get, orgPath, withQuery } from "../api.ts";
import type { Page } from "../context.ts";
import { fill, h, table, time, value } from "../dom.ts";
import { hrefOf } from "../route.ts";

interface Entry {
  id: string;
  at: string;
  actor: { type: string; id: string };
  action: string;
  target: { type: string; id: string };
  changes?: { before?: unknown; after?: unknown };
  request_id: string;
}

/** The audit log: every change, newest first, a page at a time (`page_token` in the URL). */
export const auditLogPage: Page = async ({ org, params }, into) => {
  const answer = await get<{ entries: Entry[]; next_page_token?: string }>(
    withQuery(orgPath(org.id, "/audit-log"), { limit: "50", page_token: params.get("page_token") ?? undefined }),
  );
  const changes = (entry: Entry) =>
    entry.changes
      ? h(
          "details",
          {},
          h("summary", {}, "Before and after"),
          h("pre", { class: "json" }, JSON.stringify(entry.changes, null, 2)),
        )
      : "";
  fill(
    into,
    h("h1", {}, "Audit log"),
    h(
      "p",
      { class: "muted" },
      "Every change made through the console, the API or the admin command line, newest first. Secrets never appear here.",
    ),
    answer.entries.length === 0
      ? h("p", {}, "No changes yet.")
      : table(
          "Audit log, newest first",
          ["When", "Who", "Action", "Target", "Changes"],
          answer.entries.map((entry) => [
            time(entry.at),
            [`${entry.actor.type} `, value(entry.actor.id)],
            h("code", {}, entry.action),
            [`${entry.target.type} `, value(entry.target.id)],
            changes(entry),
          ]),
        ),
    h(
      "div",
      { class: "actions" },
      params.get("page_token")
        ? h("a", { href: hrefOf("settings/audit-log", { org: org.id }), "data-route": true }, "First page")
        : null,
      answer.next_page_token
        ? h(
            "a",
            {
              href: hrefOf("settings/audit-log", { org: org.id, page_token: answer.next_page_token }),
              "data-route": true,
            },
            "Next page",
          )
        : null,
    ),
  );
};
