/**
 * The console's pages: the path under /console, the navigation link's accessible name (kept stable: the
 * browser tests find them by name) and whether it sits under Settings. Shared by the gateway, which serves
 * the console's page at each of these paths, and the console itself, which routes on them.
 */
export const CONSOLE_PAGES = [
  { path: "costs", name: "Costs", settings: false },
  { path: "transactions", name: "Transactions", settings: false },
  { path: "unpriced", name: "Unpriced", settings: false },
  { path: "reconciliation", name: "Reconciliation", settings: false },
  { path: "budgets", name: "Budgets", settings: false },
  { path: "webhooks", name: "Webhooks", settings: false },
  { path: "settings/prices", name: "Prices", settings: true },
  { path: "settings/dimensions", name: "Dimensions", settings: true },
  { path: "settings/api-keys", name: "API Keys", settings: true },
  { path: "settings/connections", name: "Connections", settings: true },
  { path: "settings/members", name: "Members", settings: true },
  { path: "settings/audit-log", name: "Audit log", settings: true },
] as const;

export type ConsolePath = (typeof CONSOLE_PAGES)[number]["path"];

export const CONSOLE_ROOT = "/console";
