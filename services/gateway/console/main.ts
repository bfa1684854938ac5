import { useSession } from "./api.ts";
import type { Me, Page } from "./context.ts";
import { fill, h } from "./dom.ts";
import { apiKeysPage } from "./pages/api-keys.ts";
import { auditLogPage } from "./pages/audit-log.ts";
import { budgetsPage } from "./pages/budgets.ts";
import { connectionsPage } from "./pages/connections.ts";
import { costsPage } from "./pages/costs.ts";
import { dimensionsPage } from "./pages/dimensions.ts";
import { membersPage } from "./pages/members.ts";
import { pricesPage } from "./pages/prices.ts";
import { reconciliationPage } from "./pages/reconciliation.ts";
import { transactionsPage } from "./pages/transactions.ts";
import { unpricedPage } from "./pages/unpriced.ts";
import { webhooksPage } from "./pages/webhooks.ts";
import type { ConsolePath } from "./paths.ts";
import { routeWith } from "./route.ts";
import { showPage, showSignedOut } from "./shell.ts";

/** Each page of the console by its path (paths.ts names them all). */
const PAGES: Partial<Record<ConsolePath, Page>> = {
  costs: costsPage,
  transactions: transactionsPage,
  unpriced: unpricedPage,
  reconciliation: reconciliationPage,
  budgets: budgetsPage,
  webhooks: webhooksPage,
  "settings/prices": pricesPage,
  "settings/dimensions": dimensionsPage,
  "settings/api-keys": apiKeysPage,
  "settings/connections": connectionsPage,
  "settings/members": membersPage,
  "settings/audit-log": auditLogPage,
};

const app = document.getElementById("app") as HTMLElement;

/** Who is signed in (GET /v1/me) and the session's CSRF token; then the page the address names. */
async function start() {
  const response = await fetch("/v1/me", { headers: { Accept: "application/json" }, credentials: "same-origin" });
  if (response.status === 401) return showSignedOut(app);
  if (!response.ok) {
    fill(
      app,
      h(
        "main",
        { id: "main" },
        h("h1", {}, "Usage console"),
        h("p", { role: "alert" }, `Sign-in is not available here (${response.status}).`),
      ),
    );
    return;
  }
  const me = (await response.json()) as Me;
  useSession(response.headers.get("X-CSRF-Token") ?? "", () =>
    showSignedOut(app, "Your session has ended. Sign in again."),
  );
  const render = () => void showPage(app, me, PAGES);
  routeWith(render);
  render();
}

void start();
