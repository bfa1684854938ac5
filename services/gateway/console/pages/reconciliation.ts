import { ApiError, get, orgPath, withQuery } from "../api.ts";
import type { Page } from "../context.ts";
import { fill, h } from "../dom.ts";
import type { ReconciliationRow } from "../reconciliation-days.ts";
import { driftThresholdOf, type ReconciliationSettings, toleranceOf } from "../reconciliation-settings.ts";
import { hrefOf } from "../route.ts";
import { errorNotice } from "./common.ts";
import { dayAfter, reconciliationControls, reconciliationQueryOf } from "./reconciliation-controls.ts";
import { runPanel } from "./reconciliation-run.ts";
import { settingsPanel, settingsStatement } from "./reconciliation-settings.ts";
import { classCounts, classLegend, driftTable, rowsTable } from "./reconciliation-tables.ts";

interface ReconciliationAnswer {
  classes: Record<string, number>;
  rows: ReconciliationRow[];
}

/** What the page says with no rows: how to connect a vendor, or that no run has stored these days yet. */
function emptyState(org: string, connected: boolean) {
  if (connected)
    return h("p", {}, "No comparisons in these days yet. A run stores them: each morning's, or one started below.");
  return h(
    "div",
    { class: "panel" },
    h("h2", {}, "No vendor is connected"),
    h(
      "p",
      {},
      "To put each vendor's own usage and cost reports beside ours, an admin connects the vendor under ",
      h("a", { href: hrefOf("settings/connections", { org }), "data-route": true }, "Settings, Connections"),
      " with its admin credential (an OpenAI admin key, an Anthropic Admin API key). The next morning's run reads the last 7 days; an admin can also start a run here.",
    ),
  );
}

/**
 * Reconciliation: per UTC day, vendor and model, our figures beside the vendor's own report, the
 * difference and its class (GET /usage/reconciliation), each day's totals with the drift judged against
 * the organization's threshold, its tolerance and threshold (GET, PUT .../reconciliation/settings), and
 * runs. A query the API refuses (more than 92 days) is said beside the controls, so that it can be put
 * right. What the settings decide is drawn again whenever they are saved.
 */
export const reconciliationPage: Page = async (context, into) => {
  const { org, params } = context;
  const query = reconciliationQueryOf(params);
  const read = get<ReconciliationAnswer>(
    withQuery("/usage/reconciliation", {
      org: org.id,
      from: query.fromDay,
      to: dayAfter(query.toDay),
      provider: query.provider,
      model: query.model,
    }),
  ).catch((error: unknown) => {
    if (error instanceof ApiError && error.status < 500 && error.status !== 401) return error;
    throw error;
  });
  const [answer, { connections }, settings] = await Promise.all([
    read,
    get<{ connections: unknown[] }>(orgPath(org.id, "/connections?limit=100")),
    get<ReconciliationSettings>(orgPath(org.id, "/reconciliation/settings")),
  ]);
  const statement = h("div");
  const figures = h("div");
  const draw = (current: ReconciliationSettings) => {
    fill(statement, settingsStatement(current));
    if (answer instanceof ApiError || answer.rows.length === 0) return;
    fill(
      figures,
      classCounts(answer.classes, toleranceOf(current)),
      h("h2", {}, "Each day's drift"),
      driftTable(answer.rows, driftThresholdOf(current)),
      h("h2", {}, "By day, vendor and model"),
      rowsTable(answer.rows),
      classLegend(toleranceOf(current)),
    );
  };
  draw(settings);
  fill(
    into,
    h("h1", {}, "Reconciliation"),
    h(
      "p",
      { class: "muted" },
      "Our figures beside each vendor's own report, per UTC day and model, and why they differ. Differences are the vendor's less ours.",
    ),
    statement,
    reconciliationControls(context, query),
    answer instanceof ApiError
      ? errorNotice(answer)
      : answer.rows.length === 0
        ? emptyState(org.id, connections.length > 0)
        : figures,
    settingsPanel(org, settings, draw),
    runPanel(context, query),
  );
};
