import type { OracleCase } from "../oracle-case.ts";

/** DeepSeek: costs worked out by hand from the vendor's own pages (each case: page, then arithmetic). */
export const DEEPSEEK_CASES: OracleCase[] = [
  // Page: https://api-docs.deepseek.com/quick_start/pricing (copy announcing the 2025-09-05 change; 'current price
  //   list')
  // 10:00 UTC is in STANDARD (UTC 00:30-16:30): miss 6,000 x $0.27/M = $0.001620000; hit 4,000 x $0.07/M =
  //   $0.000280000; output 2,000 x $1.10/M = $0.002200000; total $0.004100000
  {
    id: "D1-deepseek-chat-standard-window-2025-08",
    receivedAt: "2025-08-01T10:00:00Z",
    request: {
      provider: "deepseek",
      model: "deepseek-chat",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 10000, cached_tokens: 4000, output_tokens: 2000, total_tokens: 12000 },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.004100000",
  },
  // Page: https://api-docs.deepseek.com/quick_start/pricing (same copy, DISCOUNT PRICE table)
  // 20:00 UTC is in DISCOUNT (UTC 16:30-00:30): miss 6,000 x $0.135/M = $0.000810000; hit 4,000 x $0.035/M =
  //   $0.000140000; output 2,000 x $0.550/M = $0.001100000; total $0.002050000
  {
    id: "D2-deepseek-chat-discount-window-2025-08",
    receivedAt: "2025-08-01T20:00:00Z",
    request: {
      provider: "deepseek",
      model: "deepseek-chat",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 10000, cached_tokens: 4000, output_tokens: 2000, total_tokens: 12000 },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.002050000",
  },
  // Page: https://api-docs.deepseek.com/quick_start/pricing (copy before 2025-09-05, STANDARD PRICE
  //   deepseek-reasoner)
  // reasoning is inside output_tokens (not added): miss 6,000 x $0.55/M = $0.003300000; hit 4,000 x $0.14/M =
  //   $0.000560000; output 3,000 x $2.19/M = $0.006570000; total $0.010430000
  {
    id: "D3-deepseek-reasoner-standard-window-2025-08",
    receivedAt: "2025-08-01T10:00:00Z",
    request: {
      provider: "deepseek",
      model: "deepseek-reasoner",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 10000,
            cached_tokens: 4000,
            output_tokens: 3000,
            reasoning_tokens: 2000,
            total_tokens: 13000,
          },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.010430000",
  },
  // Page: https://api-docs.deepseek.com/quick_start/pricing (copy before 2025-09-05, DISCOUNT PRICE
  //   deepseek-reasoner)
  // 23:59 UTC in DISCOUNT: miss 6,000 x $0.135/M = $0.000810000; hit 4,000 x $0.035/M = $0.000140000; output 3,000
  //   x $0.550/M = $0.001650000; total $0.002600000
  {
    id: "D4-deepseek-reasoner-discount-window-2025-08",
    receivedAt: "2025-08-01T23:59:00Z",
    request: {
      provider: "deepseek",
      model: "deepseek-reasoner",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 10000,
            cached_tokens: 4000,
            output_tokens: 3000,
            reasoning_tokens: 2000,
            total_tokens: 13000,
          },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.002600000",
  },
  // Page: https://api-docs.deepseek.com/quick_start/pricing ('Starting from 16:00 UTC Time on Sept 5th, 2025 ...
  //   cancel the nighttime discount')
  // after 2025-09-05 16:00 UTC, no discount even at 20:00: miss 6,000 x $0.56/M = $0.003360000; hit 4,000 x $0.07/M
  //   = $0.000280000; output 2,000 x $1.68/M = $0.003360000; total $0.007000000
  {
    id: "D5-deepseek-chat-after-2025-09-05-no-night-discount",
    receivedAt: "2025-09-10T20:00:00Z",
    request: {
      provider: "deepseek",
      model: "deepseek-chat",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 10000, cached_tokens: 4000, output_tokens: 2000, total_tokens: 12000 },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.007000000",
  },
  // Page: https://api-docs.deepseek.com/quick_start/pricing (May 2026 copy, footnotes (1) and (2))
  // deepseek-chat = deepseek-v4-flash non-thinking; after 2026-04-26 12:15 UTC cache hit $0.0028: miss 5,000 x
  //   $0.14/M = $0.000700000; hit 5,000 x $0.0028/M = $0.000014000; output 2,000 x $0.28/M = $0.000560000; total
  //   $0.001274000
  {
    id: "D7-deepseek-chat-v4-flash-era",
    receivedAt: "2026-05-10T12:00:00Z",
    request: {
      provider: "deepseek",
      model: "deepseek-chat",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 10000, cached_tokens: 5000, output_tokens: 2000, total_tokens: 12000 },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.001274000",
  },
];
