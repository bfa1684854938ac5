import { CostExplorerClient, GetCostAndUsageCommand } from "@aws-sdk/client-cost-explorer";
import * as v from "valibot";
import { BEDROCK_SERVICE, bedrockUsage, MARKETPLACE_EDITION } from "./bedrock-usage-types.ts";
import { usdDecimalToNanos } from "./vendor-amounts.ts";
import { checkDayRange, type DayRange, wholeDayOf } from "./vendor-days.ts";
import { FigureSheet, type VendorFigure } from "./vendor-figures.ts";
import { VendorAnswerError, type VendorHttp } from "./vendor-http.ts";

/*
 * AWS Cost Explorer's GetCostAndUsage (docs.aws.amazon.com/aws-cost-management/latest/APIReference/
 * API_GetCostAndUsage.html, read 2026-11-29): `TimePeriod` `{ Start, End }` (days, End excluded),
 * `Granularity: DAILY`, `Metrics`, `GroupBy` (at most two), `Filter`, and `NextPageToken` from one answer
 * to the next. An answer is `{ GroupDefinitions, ResultsByTime: [{ TimePeriod, Groups: [{ Keys, Metrics:
 * { UnblendedCost: { Amount, Unit }, UsageQuantity: { Amount, Unit } } }], Estimated }], NextPageToken }`.
 * Bedrock's own lines are under the service "Amazon Bedrock"; models sold through AWS Marketplace (Claude
 * among them) under a service per model, "... (Amazon Bedrock Edition)", billed by AWS Marketplace: both
 * are asked for, grouped by service and usage type. Cost Explorer is served from us-east-1 only.
 */
const Amount = v.object({ Amount: v.pipe(v.string(), v.maxLength(40)), Unit: v.optional(v.string(), "") });
const Answer = v.object({
  ResultsByTime: v.optional(
    v.array(
      v.object({
        TimePeriod: v.object({
          Start: v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/)),
          End: v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/)),
        }),
        Groups: v.optional(
          v.pipe(
            v.array(
              v.object({
                Keys: v.pipe(v.array(v.pipe(v.string(), v.maxLength(500))), v.length(2)),
                Metrics: v.object({ UnblendedCost: Amount, UsageQuantity: v.optional(Amount) }),
              }),
            ),
            v.maxLength(100_000),
          ),
          [],
        ),
      }),
    ),
    [],
  ),
  NextPageToken: v.optional(v.string()),
});

/** Tokens per unit of `UsageQuantity`, by the unit Cost Explorer names; another unit gives no count. */
const TOKENS_PER_UNIT: Record<string, number> = {
  tokens: 1,
  token: 1,
  count: 1,
  "1k tokens": 1000,
  "k tokens": 1000,
  "1m tokens": 1_000_000,
  "m tokens": 1_000_000,
};

/** The line a usage type naming no model's tokens is compared as: its service and usage type. */
export const unmappedUsageType = (service: string, usageType: string): string => `${service}: ${usageType}`;

export interface BedrockReader {
  /** RECONCILE_AWS_ENDPOINT: Cost Explorer's own (`https://ce.us-east-1.amazonaws.com`) unless a test stands in. */
  endpoint?: string;
  http: VendorHttp;
  now: Date;
}

const KEY_PAIR = /^((?:AKIA|ASIA)[A-Z0-9]{16}):([A-Za-z0-9/+=]{40})$/;

function describe(error: unknown): string {
  const name = (error as { name?: unknown }).name;
  const status = (error as { $metadata?: { httpStatusCode?: unknown } }).$metadata?.httpStatusCode;
  if (name === "ThrottlingException" || name === "LimitExceededException") return "rate limited";
  if (
    status === 403 ||
    name === "UnrecognizedClientException" ||
    name === "InvalidSignatureException" ||
    name === "AccessDeniedException"
  ) {
    return "AWS refused the credential";
  }
  if (name === "DataUnavailableException") return "Cost Explorer has no data for the range yet";
  if (typeof status === "number") {
    return `answered ${status}${typeof name === "string" ? ` (${name.replace(/[^\w]/g, "").slice(0, 60)})` : ""}`;
  }
  return "Cost Explorer could not be reached or did not answer in time";
}

/** The range's whole days from Cost Explorer, one figure per day and model (or unmapped usage type). */
export async function readBedrock(reader: BedrockReader, credential: string, range: DayRange): Promise<VendorFigure[]> {
  checkDayRange(range);
  const pair = KEY_PAIR.exec(credential);
  if (!pair) {
    // A role ARN: assuming it needs AWS credentials of the worker's own, which it has none of (it runs on
    // Google Cloud). Decision 0032 says how it would be done; until then the run says so.
    throw new VendorAnswerError(
      "bedrock: assuming an IAM role is not available yet; connect with an access key pair (<access key id>:<secret access key>)",
    );
  }
  const { settings } = reader.http;
  const client = new CostExplorerClient({
    region: "us-east-1",
    ...(reader.endpoint ? { endpoint: reader.endpoint } : {}),
    credentials: { accessKeyId: pair[1] as string, secretAccessKey: pair[2] as string },
    maxAttempts: settings.maxRetries + 1,
    requestHandler: { requestTimeout: settings.timeoutMs, connectionTimeout: settings.timeoutMs },
  });
  const sheet = new FigureSheet();
  try {
    let token: string | undefined;
    for (let pages = 0; pages === 0 || token; pages++) {
      if (pages >= settings.maxPages) {
        throw new VendorAnswerError(`bedrock cost explorer: more than ${settings.maxPages} pages`);
      }
      const answer = await client.send(
        new GetCostAndUsageCommand({
          TimePeriod: { Start: range.from.toISOString().slice(0, 10), End: range.to.toISOString().slice(0, 10) },
          Granularity: "DAILY",
          Metrics: ["UnblendedCost", "UsageQuantity"],
          GroupBy: [
            { Type: "DIMENSION", Key: "SERVICE" },
            { Type: "DIMENSION", Key: "USAGE_TYPE" },
          ],
          Filter: {
            Or: [
              { Dimensions: { Key: "SERVICE", Values: [BEDROCK_SERVICE] } },
              { Dimensions: { Key: "BILLING_ENTITY", Values: ["AWS Marketplace"] } },
            ],
          },
          ...(token ? { NextPageToken: token } : {}),
        }),
      );
      const parsed = v.safeParse(Answer, answer);
      if (!parsed.success) throw new VendorAnswerError("bedrock cost explorer: the answer is not the documented one");
      for (const result of parsed.output.ResultsByTime) {
        const day = wholeDayOf(
          Date.parse(`${result.TimePeriod.Start}T00:00:00Z`),
          Date.parse(`${result.TimePeriod.End}T00:00:00Z`),
          reader.now,
        );
        if (!day) continue;
        for (const group of result.Groups) {
          const [service, usageType] = group.Keys as [string, string];
          if (service !== BEDROCK_SERVICE && !MARKETPLACE_EDITION.test(service)) continue;
          const { UnblendedCost: cost, UsageQuantity: quantity } = group.Metrics;
          if (cost.Unit.toUpperCase() !== "USD") {
            throw new VendorAnswerError(`bedrock cost explorer: an amount in ${cost.Unit.slice(0, 8)}, not USD`);
          }
          const nanos = usdDecimalToNanos(cost.Amount);
          const usage = bedrockUsage(service, usageType);
          if (!usage) {
            sheet.addCost(day, unmappedUsageType(service, usageType), nanos);
            continue;
          }
          const perUnit = quantity ? TOKENS_PER_UNIT[quantity.Unit.trim().toLowerCase()] : undefined;
          const amount = quantity ? Number(quantity.Amount) : Number.NaN;
          if (perUnit !== undefined && Number.isFinite(amount)) {
            sheet.addTokens(day, usage.model, { [usage.kind]: Math.round(amount * perUnit) });
          }
          sheet.addCost(day, usage.model, nanos, usage.component);
        }
      }
      token = parsed.output.NextPageToken || undefined;
    }
  } catch (error) {
    if (error instanceof VendorAnswerError) throw error;
    // The SDK's message is not repeated: only what kind of answer it was.
    throw new VendorAnswerError(`bedrock cost explorer: ${describe(error)}`);
  } finally {
    client.destroy();
  }
  return sheet.figures();
}
