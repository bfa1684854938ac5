/** A valid transaction of the usage API; `over` replaces its top-level fields. */
export const validTransaction = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  provider: "openai",
  model: "gpt-4o",
  usage: [{ type: "tokens", metrics: { input_tokens: 100, output_tokens: 20, total_tokens: 120 } }],
  context: { billable_customer_id: "cust-1" },
  ...over,
});
