import { call, get, orgPath } from "../api.ts";
import { may, type PageContext } from "../context.ts";
import { fill, h, notice, value } from "../dom.ts";
import { attempt, errorNotice, readOnly } from "./common.ts";
import { dayAfter, type ReconciliationQuery, utcDay } from "./reconciliation-controls.ts";

interface RunVendor {
  vendor: string;
  rows: number;
  classes: Record<string, number>;
  alerted: string[];
  error: string | null;
}

interface Run {
  id: string;
  state: "queued" | "running" | "succeeded" | "failed";
  from: string;
  to: string;
  vendors: RunVendor[];
  error?: string | null;
}

/** A run waits for the worker's next tick (every ten minutes in Google Cloud): asked after less and less often. */
const FIRST_POLL_MS = 2_000;
const LAST_POLL_MS = 30_000;
const finished = (run: Run) => run.state === "succeeded" || run.state === "failed";

function describeRun(run: Run) {
  const last = utcDay(Date.parse(`${run.to}T00:00:00Z`) - 86_400_000);
  return h(
    "div",
    {},
    h("p", { role: "status" }, `Run ${run.id} over ${run.from} to ${last}: ${run.state}.`),
    run.state === "queued"
      ? h(
          "p",
          { class: "muted" },
          "The worker takes a queued run up on its next tick, every ten minutes in Google Cloud.",
        )
      : null,
    run.error ? notice(run.error, "error") : null,
    run.vendors.length === 0
      ? null
      : h(
          "ul",
          {},
          run.vendors.map((result) =>
            h(
              "li",
              {},
              `${result.vendor}: ${result.rows} rows`,
              Object.keys(result.classes).length > 0
                ? ` (${Object.entries(result.classes)
                    .map(([name, rows]) => `${name} ${rows}`)
                    .join(", ")})`
                : "",
              result.alerted.length > 0 ? `; drift alerted for ${result.alerted.join(", ")}` : "",
              result.error ? ["; ", value(result.error)] : "",
            ),
          ),
        ),
  );
}

/**
 * A run over the page's days (`POST .../reconciliation/runs`, admin) and the state of the run the address
 * names (`GET .../runs/{id}`), asked again (after two seconds, then less often) until it has finished; then the page is read
 * again, with what the run stored.
 */
export function runPanel(context: PageContext, query: ReconciliationQuery): HTMLElement {
  const { org, params } = context;
  const runs = orgPath(org.id, "/reconciliation/runs");
  const status = h("div");
  const panel = h(
    "section",
    { class: "panel", "aria-labelledby": "run-heading" },
    h("h2", { id: "run-heading" }, "Runs"),
  );
  if (may(org.role, "admin")) {
    const start: HTMLButtonElement = h(
      "button",
      {
        type: "button",
        class: "primary",
        onclick: () =>
          void attempt(status, start, async () => {
            const run = await call<{ id: string }>("POST", runs, {
              body: { from: query.fromDay, to: dayAfter(query.toDay) },
            });
            context.go({ run: run.id });
          }),
      },
      "Start a run for these days",
    );
    panel.append(
      h(
        "p",
        { class: "muted" },
        "Each morning a run reads the last 7 days again from every connected vendor. A run asked for here reads the days above.",
      ),
      h("div", { class: "actions" }, start),
    );
  } else panel.append(readOnly(org.role, "admin"));
  panel.append(status);

  const id = params.get("run");
  if (id) {
    let seenUnfinished = false;
    let wait = FIRST_POLL_MS;
    const poll = async () => {
      if (!status.isConnected && seenUnfinished) return;
      try {
        const run = await get<Run>(`${runs}/${encodeURIComponent(id)}`);
        if (!finished(run)) {
          seenUnfinished = true;
          if (status.textContent !== describeRun(run).textContent) fill(status, describeRun(run));
          setTimeout(() => void poll(), wait);
          wait = Math.min(wait * 1.5, LAST_POLL_MS);
        } else if (seenUnfinished) {
          if (status.isConnected) context.go({}, { replace: true });
        } else fill(status, describeRun(run));
      } catch (error) {
        fill(status, errorNotice(error));
      }
    };
    void poll();
  }
  return panel;
}
