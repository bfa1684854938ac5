import type { OracleCase } from "../oracle-case.ts";
import { request, tokens } from "./request.ts";

/**
 * DeepSeek peak / off-peak billing, worked by hand from https://api-docs.deepseek.com/quick_start/pricing (its
 * English copies, read 2026-11-26) and https://api-docs.deepseek.com/zh-cn/quick_start/pricing:
 * - the copy announcing the change (V4-Flash-0731, V4-Pro-0813): deepseek-v4-flash $0.0028 cache hit / $0.14 cache
 *   miss / $0.28 output, deepseek-v4-pro $0.003625 / $0.435 / $0.87; "Peak hours are 01:00 - 04:00 and 06:00 - 10:00 UTC ... The new prices take effect at
 *   16:00 UTC on August 16, 2026";
 * - the copy after it: deepseek-v4-flash and deepseek-v4-flash-vision-exp OFF-PEAK $0.007 / $0.22 / $0.66, PEAK
 *   $0.014 / $0.44 / $1.32; deepseek-v4-pro OFF-PEAK $0.022 / $0.66 / $1.98, PEAK $0.044 / $1.32 / $3.96;
 * - the current copy: deepseek-flash (DeepSeek-V4.1-Flash-1017) OFF-PEAK $0.003 / $0.15 / $0.6, PEAK $0.006 /
 *   $0.3 / $1.2; the legacy flash names billed at Flash prices; deepseek-v4-pro as above;
 * - the Chinese copy: peak is Beijing time Monday to Friday, Chinese statutory holidays excepted, 9:00-12:00 and
 *   14:00-18:00 (= 01:00-04:00 and 06:00-10:00 UTC); weekends and statutory holidays are off-peak all day.
 *   Holidays: the State Council notice for 2026 (National Day 1-7 October).
 * Every case: 100,000 input of which 60,000 cache hits (40,000 misses), 10,000 output, unless it says otherwise.
 */
const FLASH_USAGE = [tokens({ input_tokens: 100000, cached_tokens: 60000, output_tokens: 10000 })];
const PRO_USAGE = [tokens({ input_tokens: 100000, cached_tokens: 20000, output_tokens: 10000 })];

export const DEEPSEEK_2_CASES: OracleCase[] = [
  // Wednesday 12:00 UTC, off-peak. 40,000 x $0.15/M = 0.006000000; 60,000 x $0.003/M = 0.000180000; 10,000 x
  //   $0.6/M = 0.006000000; total 0.012180000
  {
    id: "deepseek-20-flash-off-peak",
    receivedAt: "2026-11-25T12:00:00Z",
    request: request("deepseek", "deepseek-flash", FLASH_USAGE),
    expectedCostUsd: "0.012180000",
  },
  // Wednesday 07:00 UTC, peak. 40,000 x $0.3/M = 0.012000000; 60,000 x $0.006/M = 0.000360000; 10,000 x $1.2/M =
  //   0.012000000; total 0.024360000
  {
    id: "deepseek-21-flash-peak",
    receivedAt: "2026-11-25T07:00:00Z",
    request: request("deepseek", "deepseek-flash", FLASH_USAGE),
    expectedCostUsd: "0.024360000",
  },
  // Wednesday 01:00:00 UTC, the first second of "01:00 - 04:00": peak, as deepseek-21: total 0.024360000
  {
    id: "deepseek-22-flash-peak-starts-0100",
    receivedAt: "2026-11-25T01:00:00Z",
    request: request("deepseek", "deepseek-flash", FLASH_USAGE),
    expectedCostUsd: "0.024360000",
  },
  // Wednesday 10:00:00 UTC, where "06:00 - 10:00" has ended: off-peak, as deepseek-20: total 0.012180000
  {
    id: "deepseek-23-flash-off-peak-at-1000",
    receivedAt: "2026-11-25T10:00:00Z",
    request: request("deepseek", "deepseek-flash", FLASH_USAGE),
    expectedCostUsd: "0.012180000",
  },
  // Saturday 07:00 UTC: weekends are off-peak all day, as deepseek-20: total 0.012180000
  {
    id: "deepseek-24-flash-saturday-off-peak",
    receivedAt: "2026-11-21T07:00:00Z",
    request: request("deepseek", "deepseek-flash", FLASH_USAGE),
    expectedCostUsd: "0.012180000",
  },
  // Thursday 2026-10-01 07:00 UTC, National Day (a statutory holiday): off-peak, as deepseek-20: total 0.012180000
  {
    id: "deepseek-25-flash-national-day-off-peak",
    receivedAt: "2026-10-01T07:00:00Z",
    request: request("deepseek", "deepseek-flash", FLASH_USAGE),
    expectedCostUsd: "0.012180000",
  },
  // The legacy name, Wednesday 08:00 UTC, billed at Flash peak prices, as deepseek-21: total 0.024360000
  {
    id: "deepseek-26-legacy-v4-flash-peak-at-flash-prices",
    receivedAt: "2026-11-25T08:00:00Z",
    request: request("deepseek", "deepseek-v4-flash", FLASH_USAGE),
    expectedCostUsd: "0.024360000",
  },
  // deepseek-v4-pro, Tuesday 02:00 UTC, peak; 80,000 misses, 20,000 hits. 80,000 x $1.32/M = 0.105600000; 20,000 x
  //   $0.044/M = 0.000880000; 10,000 x $3.96/M = 0.039600000; total 0.146080000
  {
    id: "deepseek-27-v4-pro-peak",
    receivedAt: "2026-11-24T02:00:00Z",
    request: request("deepseek", "deepseek-v4-pro", PRO_USAGE),
    expectedCostUsd: "0.146080000",
  },
  // deepseek-v4-pro, Tuesday 12:00 UTC, off-peak. 80,000 x $0.66/M = 0.052800000; 20,000 x $0.022/M = 0.000440000;
  //   10,000 x $1.98/M = 0.019800000; total 0.073040000
  {
    id: "deepseek-28-v4-pro-off-peak",
    receivedAt: "2026-11-24T12:00:00Z",
    request: request("deepseek", "deepseek-v4-pro", PRO_USAGE),
    expectedCostUsd: "0.073040000",
  },
  // deepseek-v4-flash before V4.1-Flash, Thursday 2026-08-20 02:00 UTC, peak. 40,000 x $0.44/M = 0.017600000;
  //   60,000 x $0.014/M = 0.000840000; 10,000 x $1.32/M = 0.013200000; total 0.031640000
  {
    id: "deepseek-29-v4-flash-august-peak",
    receivedAt: "2026-08-20T02:00:00Z",
    request: request("deepseek", "deepseek-v4-flash", FLASH_USAGE),
    expectedCostUsd: "0.031640000",
  },
  // Same day 12:00 UTC, off-peak. 40,000 x $0.22/M = 0.008800000; 60,000 x $0.007/M = 0.000420000; 10,000 x
  //   $0.66/M = 0.006600000; total 0.015820000
  {
    id: "deepseek-30-v4-flash-august-off-peak",
    receivedAt: "2026-08-20T12:00:00Z",
    request: request("deepseek", "deepseek-v4-flash", FLASH_USAGE),
    expectedCostUsd: "0.015820000",
  },
  // One second before 16:00 UTC on 2026-08-16: the flat price. 40,000 x $0.14/M = 0.005600000; 60,000 x $0.0028/M =
  //   0.000168000; 10,000 x $0.28/M = 0.002800000; total 0.008568000
  {
    id: "deepseek-31-v4-flash-before-the-change",
    receivedAt: "2026-08-16T15:59:59Z",
    request: request("deepseek", "deepseek-v4-flash", FLASH_USAGE),
    expectedCostUsd: "0.008568000",
  },
  // deepseek-v4-pro before the change, Monday 2026-08-10 02:00 UTC (an hour the later copies make peak): the flat
  //   $0.003625 / $0.435 / $0.87 of the announcing copy. 80,000 x $0.435/M = 0.034800000; 20,000 x $0.003625/M =
  //   0.000072500; 10,000 x $0.87/M = 0.008700000; total 0.043572500
  {
    id: "deepseek-33-v4-pro-flat-before-the-change",
    receivedAt: "2026-08-10T02:00:00Z",
    request: request("deepseek", "deepseek-v4-pro", PRO_USAGE),
    expectedCostUsd: "0.043572500",
  },
  // deepseek-v4-flash-vision-exp, Monday 2026-08-24 09:59 UTC, peak at its column's prices (as deepseek-v4-flash):
  //   as deepseek-29, total 0.031640000
  {
    id: "deepseek-32-v4-flash-vision-exp-peak",
    receivedAt: "2026-08-24T09:59:00Z",
    request: request("deepseek", "deepseek-v4-flash-vision-exp", FLASH_USAGE),
    expectedCostUsd: "0.031640000",
  },
];
