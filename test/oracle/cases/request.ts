/** A transaction as a client sends it, for the oracle cases that state only what differs. */
export function request(
  provider: string,
  model: string,
  usage: Array<Record<string, unknown>>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { provider, model, ...extra, usage, context: { billable_customer_id: "cust-oracle" } };
}

/** A `tokens` entry; `total_tokens` (never priced) is input plus output. */
export function tokens(metrics: Record<string, number> & { input_tokens: number; output_tokens: number }) {
  return { type: "tokens", metrics: { ...metrics, total_tokens: metrics.input_tokens + metrics.output_tokens } };
}
