/**
 * One transaction whose cost was worked out by hand from the vendor's own price page (never from the
 * catalog or our code). The page and the arithmetic are the comment above each case.
 */
export interface OracleCase {
  id: string;
  /** The receive time the gateway gives the transaction: prices in effect then apply. */
  receivedAt: string;
  /** The transaction exactly as a client sends it. */
  request: Record<string, unknown>;
  /** USD, nine decimal places. */
  expectedCostUsd: string;
}
