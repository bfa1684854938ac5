/**
 * The name a model is compared under: the vendors' reports name the dated snapshot
 * (`gpt-4o-mini-2024-07-18`, `claude-sonnet-4-5-20250929`) where a client may have sent the alias, so a
 * trailing date is dropped on both sides, and the names seen are kept on the row.
 */
export const modelKey = (model: string): string =>
  model
    .trim()
    .toLowerCase()
    .replace(/-(?:\d{4}-\d{2}-\d{2}|\d{8})$/, "");
