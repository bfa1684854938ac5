import type { OracleCase } from "../oracle-case.ts";

/** Anthropic: costs worked out by hand from the vendor's own pages (each case: page, then arithmetic). */
export const ANTHROPIC_1_CASES: OracleCase[] = [
  // Page: https://platform.claude.com/docs/en/about-claude/pricing (AP-1, Claude Sonnet 4 row)
  // input 12,000 x $3/MTok = 12,000 x 3,000 nano = 36,000,000; output 800 x $15/MTok = 800 x 15,000 = 12,000,000;
  //   total 48,000,000 nano
  {
    id: "A01-anthropic-plain-dated",
    receivedAt: "2025-09-10T12:00:00Z",
    request: {
      provider: "anthropic",
      model: "claude-sonnet-4-20250514",
      usage: [{ type: "tokens", metrics: { input_tokens: 12000, output_tokens: 800, total_tokens: 12800 } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.048000000",
  },
  // Page: https://platform.claude.com/docs/en/about-claude/pricing (AP-1, Claude Sonnet 3.7 row); aliases:
  //   https://platform.claude.com/docs/en/about-claude/models/overview (AM)
  // alias -> claude-3-7-sonnet-20250219 (AM). input 2,500 x 3,000 = 7,500,000; output 1,000 x 15,000 = 15,000,000
  //   (the 400 reasoning tokens are inside the 1,000, not added); total 22,500,000 nano
  {
    id: "A02-anthropic-latest-alias-reasoning-inside-output",
    receivedAt: "2025-06-02T08:30:00Z",
    request: {
      provider: "anthropic",
      model: "claude-3-7-sonnet-latest",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 2500, output_tokens: 1000, reasoning_tokens: 400, total_tokens: 3500 },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.022500000",
  },
  // Page: https://platform.claude.com/docs/en/about-claude/pricing (AP-1/AP-2, Claude Haiku 4.5 row: $1, $1.25, $2,
  //   $0.10, $5)
  // Haiku 4.5: input 1,000 x 1,000 = 1,000,000; 5m write 4,000 x 1,250 = 5,000,000; cache read 20,000 x 100 =
  //   2,000,000; output 500 x 5,000 = 2,500,000; total 10,500,000 nano
  {
    id: "A03-anthropic-cache-read-and-5m-write",
    receivedAt: "2026-01-20T09:00:00Z",
    request: {
      provider: "anthropic",
      model: "claude-haiku-4-5",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 1000,
            output_tokens: 500,
            cache_read_input_tokens: 20000,
            cache_creation_input_tokens: 4000,
            total_tokens: 25500,
          },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.010500000",
  },
  // Page: https://platform.claude.com/docs/en/about-claude/pricing (AP-1, Claude Sonnet 4.5 row: 5m $3.75, 1h $6)
  // input 2,000 x 3,000 = 6,000,000; 5m write (10,000 - 6,000 = 4,000) x 3,750 = 15,000,000; 1h write 6,000 x 6,000
  //   = 36,000,000; output 1,000 x 15,000 = 15,000,000; total 72,000,000 nano (billing all 10,000 writes at 5m
  //   would give 58,500,000)
  {
    id: "A04-anthropic-1h-and-5m-writes",
    receivedAt: "2025-11-03T15:00:00Z",
    request: {
      provider: "anthropic",
      model: "claude-sonnet-4-5-20250929",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 2000,
            output_tokens: 1000,
            cache_creation_input_tokens: 10000,
            cache_creation_1h_input_tokens: 6000,
            total_tokens: 13000,
          },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.072000000",
  },
  // Page: https://platform.claude.com/docs/en/about-claude/pricing (AP-1, Claude Opus 4 row: $15, 1h $30, $75)
  // input 1,000 x 15,000 = 15,000,000; 1h write 2,000 x 30,000 = 60,000,000; output 500 x 75,000 = 37,500,000;
  //   total 112,500,000 nano
  {
    id: "A05-anthropic-1h-write-opus-4-dated",
    receivedAt: "2025-07-15T10:00:00Z",
    request: {
      provider: "anthropic",
      model: "claude-opus-4-20250514",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 1000,
            output_tokens: 500,
            cache_creation_input_tokens: 2000,
            cache_creation_1h_input_tokens: 2000,
            total_tokens: 3500,
          },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.112500000",
  },
  // Page: https://platform.claude.com/docs/en/about-claude/pricing#long-context-pricing (AP-1)
  // prompt = 150,000 + 50,000 + 1 = 200,001 > 200,000 -> whole call at long-context rates (input $6, read 0.1x =
  //   $0.60, 5m write 1.25x = $7.50, output $22.50). input 150,000 x 6,000 = 900,000,000; read 50,000 x 600 =
  //   30,000,000; 5m write 1 x 7,500 = 7,500; output 2,000 x 22,500 = 45,000,000; total 975,007,500 nano
  {
    id: "A06-anthropic-long-context-one-over-threshold-via-cache",
    receivedAt: "2025-10-15T12:00:00Z",
    request: {
      provider: "anthropic",
      model: "claude-sonnet-4-20250514",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 150000,
            output_tokens: 2000,
            cache_read_input_tokens: 50000,
            cache_creation_input_tokens: 1,
            total_tokens: 202001,
          },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.975007500",
  },
  // Page: https://platform.claude.com/docs/en/about-claude/pricing#long-context-pricing (AP-1: '≤ 200K input
  //   tokens' column)
  // prompt = 150,000 + 50,000 = 200,000, not > 200,000 -> standard rates. input 150,000 x 3,000 = 450,000,000; read
  //   50,000 x 300 = 15,000,000; output 2,000 x 15,000 = 30,000,000; total 495,000,000 nano
  {
    id: "A07-anthropic-long-context-exactly-at-threshold",
    receivedAt: "2025-10-15T12:05:00Z",
    request: {
      provider: "anthropic",
      model: "claude-sonnet-4-20250514",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 150000, output_tokens: 2000, cache_read_input_tokens: 50000, total_tokens: 202000 },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.495000000",
  },
];
