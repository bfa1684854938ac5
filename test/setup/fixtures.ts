/** Valid request bodies to start from; tests change one thing at a time. */
export function validTransaction(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    provider: "openai",
    model: "gpt-4o",
    usage: [{ type: "tokens", metrics: { input_tokens: 1200, output_tokens: 300, total_tokens: 1500 } }],
    context: { billable_customer_id: "cust-42", environment: "test" },
    ...overrides,
  };
}

export const bulk = (...transactions: unknown[]) => ({ transactions });
