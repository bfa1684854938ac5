import { QUEUE_SCHEMA_VERSION, validateTransaction } from "@usage-ingestion/shared";
import { priceAt } from "../../services/cost-worker/src/pricing/price.ts";

const transaction = {
  provider: "openai",
  model: "gpt-4o",
  usage: [
    { type: "tokens", metrics: { input_tokens: 1200, cached_tokens: 200, output_tokens: 300, total_tokens: 1500 } },
  ],
  context: { billable_customer_id: "customer-1", feature: "chat", environment: "bench" },
};
const body = JSON.stringify(transaction);
const time = (label: string, n: number, fn: () => void) => {
  for (let i = 0; i < 1000; i++) fn();
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  console.log(label, (Number(process.hrtime.bigint() - t) / n / 1000).toFixed(2), "µs");
};
time("JSON.parse", 100000, () => JSON.parse(body));
time("validateTransaction", 100000, () => validateTransaction(JSON.parse(body)));
const v = validateTransaction(transaction);
time("envelope stringify", 100000, () =>
  Buffer.from(
    JSON.stringify({
      schema_version: QUEUE_SCHEMA_VERSION,
      organization_id: "o",
      request_id: "00000000-0000-4000-8000-000000000000",
      transaction_index: 0,
      received_at: new Date().toISOString(),
      transaction: v.ok && v.transaction,
    }),
  ),
);
time("priceAt", 2000, () => v.ok && priceAt(v.transaction, new Date(), null));
