import { call, get, orgPath, withQuery } from "../api.ts";
import { may, type Page, type PageContext } from "../context.ts";
import { field, fill, h, numberCell, table, time, value } from "../dom.ts";
import { hrefOf } from "../route.ts";
import { attempt, readOnly, secretOnce } from "./common.ts";

interface Webhook {
  id: string;
  url: string;
  events: string[];
  status: "active" | "disabled";
  description?: string | null;
  created_at: string;
  signing?: unknown;
  etag: string;
}

interface Attempt {
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  created_at: string;
  attempt_count: number;
  last_attempt_at: string | null;
  last_status_code: number | null;
  attempts: Attempt[];
}

const EVENTS = ["budget.threshold_crossed", "budget.forecast_exceeded"];

/** One webhook's delivery log: every delivery with its attempts, and Replay for an admin. */
async function deliveriesView(context: PageContext, into: HTMLElement, webhookId: string) {
  const { org } = context;
  const canChange = may(org.role, "admin");
  const path = orgPath(org.id, `/webhooks/${encodeURIComponent(webhookId)}/deliveries`);
  const status = h("div");
  const { deliveries } = await get<{ deliveries: Delivery[] }>(withQuery(path, { limit: "100" }));
  const back = hrefOf("webhooks", { org: org.id });
  fill(
    into,
    h("p", {}, h("a", { href: back, "data-route": true }, "Back to the webhooks")),
    h("h1", {}, "Deliveries of ", value(webhookId)),
    status,
    deliveries.length === 0
      ? h("p", {}, "No deliveries yet.")
      : table(
          "Deliveries, newest first",
          [
            "Event",
            "Type",
            "Status",
            "Created",
            ["Attempts", "number"],
            "Last attempt",
            "Last answer",
            ...(canChange ? ["Replay"] : []),
          ],
          deliveries.map((delivery) => {
            const replay: HTMLButtonElement = h(
              "button",
              {
                type: "button",
                "aria-label": `Replay delivery ${delivery.event_id}`,
                onclick: () =>
                  void attempt(status, replay, async () => {
                    await call("POST", `${path}/${encodeURIComponent(delivery.id)}/replay`);
                    status.replaceChildren(h("p", { role: "status" }, `Delivery ${delivery.event_id} queued again.`));
                  }),
              },
              "Replay",
            );
            const last = delivery.attempts.at(-1);
            return [
              value(delivery.event_id),
              delivery.event_type,
              delivery.status,
              time(delivery.created_at),
              numberCell(String(delivery.attempt_count)),
              time(delivery.last_attempt_at),
              last
                ? last.status_code === null
                  ? value(last.error)
                  : `HTTP ${last.status_code} in ${last.duration_ms} ms`
                : "",
              ...(canChange ? [replay] : []),
            ];
          }),
        ),
  );
}

/**
 * Webhooks: each endpoint, its events and status; for an admin, create (the signing secret shown once),
 * disable and enable, rotate the secret (the new one shown once), delete; each opens to its delivery log.
 */
export const webhooksPage: Page = async (context, into) => {
  const { org, params } = context;
  const opened = params.get("webhook");
  if (opened) return deliveriesView(context, into, opened);
  const canChange = may(org.role, "admin");
  const path = orgPath(org.id, "/webhooks");
  const status = h("div");
  const shown = h("div");
  const list = h("div");

  const button = (label: string, name: string, run: () => Promise<void>, danger = false) => {
    const element: HTMLButtonElement = h(
      "button",
      {
        type: "button",
        class: danger ? "danger" : null,
        "aria-label": name,
        onclick: () => void attempt(status, element, run),
      },
      label,
    );
    return element;
  };

  function actions(webhook: Webhook) {
    const at = `${path}/${encodeURIComponent(webhook.id)}`;
    const ifMatch = { "If-Match": `"${webhook.etag}"` };
    const next = webhook.status === "active" ? "disabled" : "active";
    const toggleLabel = webhook.status === "active" ? "Disable" : "Enable";
    return h(
      "td",
      {},
      h(
        "div",
        { class: "actions" },
        button(toggleLabel, `${toggleLabel} webhook ${webhook.url}`, async () => {
          await call("PATCH", at, { body: { status: next }, headers: ifMatch });
          await load();
        }),
        button("Rotate secret", `Rotate secret of webhook ${webhook.url}`, async () => {
          const answer = await call<{ secret: string }>("POST", `${at}/rotate-secret`, { body: { overlap_hours: 24 } });
          // The list first: a rotation changes the webhook's etag, and a change made from a row drawn
          // before it would be refused as stale (409).
          await load();
          fill(
            shown,
            secretOnce(
              "New signing secret",
              answer.secret,
              "this secret (the previous one keeps signing for 24 hours)",
            ),
          );
        }),
        button(
          "Delete",
          `Delete webhook ${webhook.url}`,
          async () => {
            await call("DELETE", at, { headers: ifMatch });
            await load();
          },
          true,
        ),
      ),
    );
  }

  async function load() {
    const { webhooks } = await get<{ webhooks: Webhook[] }>(`${path}?limit=1000`);
    fill(
      list,
      webhooks.length === 0
        ? h("p", {}, "No webhooks yet.")
        : table(
            "Webhooks",
            ["URL", "Events", "Status", "Created", "Deliveries", ...(canChange ? ["Actions"] : [])],
            webhooks.map((webhook) => [
              value(webhook.url),
              webhook.events.join(", "),
              webhook.status,
              time(webhook.created_at),
              h(
                "a",
                {
                  href: hrefOf("webhooks", { org: org.id, webhook: webhook.id }),
                  "data-route": true,
                  "aria-label": `Deliveries of ${webhook.url}`,
                },
                "Deliveries",
              ),
              ...(canChange ? [actions(webhook)] : []),
            ]),
          ),
    );
  }

  function createForm() {
    const url = h("input", { name: "url", type: "url", required: true, autocomplete: "off", placeholder: "https://" });
    const description = h("input", { name: "description", autocomplete: "off" });
    const events = EVENTS.map((event) => {
      const box = h("input", { type: "checkbox", name: "events", value: event, checked: true, id: `event-${event}` });
      return { event, box, block: h("div", {}, box, " ", h("label", { for: box.id }, event)) };
    });
    const submit = h("button", { type: "submit", class: "primary" }, "Create webhook");
    const form: HTMLFormElement = h(
      "form",
      {
        class: "panel",
        "aria-label": "New webhook",
        onsubmit: (event: Event) => {
          event.preventDefault();
          void attempt(status, submit, async () => {
            const answer = await call<{ secret: string }>("POST", path, {
              body: {
                url: url.value.trim(),
                events: events.filter((each) => each.box.checked).map((each) => each.event),
                ...(description.value.trim() ? { description: description.value.trim() } : {}),
              },
            });
            form.reset();
            await load();
            fill(shown, secretOnce("Signing secret", answer.secret, "this signing secret"));
          });
        },
      },
      h("div", { class: "fields" }, field("URL", url), field("Description", description)),
      h(
        "fieldset",
        {},
        h("legend", {}, "Events"),
        events.map((each) => each.block),
      ),
      h("div", { class: "actions" }, submit),
    );
    return form;
  }

  fill(into, h("h1", {}, "Webhooks"), canChange ? createForm() : readOnly(org.role, "admin"), shown, status, list);
  await load();
};
