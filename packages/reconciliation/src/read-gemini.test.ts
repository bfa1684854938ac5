import { OAuth2Client } from "google-auth-library";
import { afterEach, describe, expect, it } from "vitest";
import { type BigQueryStandIn, bigQueryStandIn, type ResultRow } from "../../../test/setup/bigquery-stand-in.ts";
import { geminiSku } from "./gemini-skus.ts";
import { GEMINI_SERVICES, type GeminiReader, readGemini } from "./read-gemini.ts";
import { DAY_MS } from "./vendor-days.ts";
import { DEFAULT_VENDOR_HTTP } from "./vendor-http.ts";

const stands: BigQueryStandIn[] = [];
afterEach(async () => {
  await Promise.all(stands.splice(0).map((stand) => stand.close()));
});

const today = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
const dayBefore = (n: number) => new Date(today.getTime() - n * DAY_MS).toISOString().slice(0, 10);
const range = { from: new Date(today.getTime() - 4 * DAY_MS), to: new Date(today.getTime() + DAY_MS) };
const TABLE = "billing-admin-01.billing_export.gcp_billing_export_v1_0123AB_CDEF45_6789AB";

/** Google's own OAuth2 client holding a token for the stand-in: no Google sign-in is reachable here. */
function auth() {
  const client = new OAuth2Client();
  client.setCredentials({ access_token: "stand-in-access-token", expiry_date: Date.now() + 3_600_000 });
  return { authClient: client };
}

function reader(stand: BigQueryStandIn, settings = {}): GeminiReader {
  return {
    endpoint: stand.endpoint,
    jobProject: "usage-worker-project",
    http: {
      settings: { ...DEFAULT_VENDOR_HTTP, maxRetries: 2, maxWaitMs: 200, timeoutMs: 5_000, ...settings },
      fetch: globalThis.fetch,
      sleep: async () => undefined,
    },
    now: new Date(),
    auth: auth(),
  };
}

const row = (day: string, service: string, sku: string, unit: string, amount: number, cost: string): ResultRow => ({
  day,
  service,
  sku,
  unit,
  currency: "USD",
  usage_amount: String(amount),
  cost,
});

describe("Gemini's billing SKUs", () => {
  it("name the model and token kind in either grammar, and nothing for SKUs that bill no tokens", () => {
    expect(geminiSku("Generate content input token count gemini 2.5 flash short input text")).toEqual({
      model: "gemini-2.5-flash",
      kind: "input_tokens",
      component: "input",
    });
    expect(geminiSku("Generate content cached input token count gemini 2.5 flash input image")).toEqual({
      model: "gemini-2.5-flash",
      kind: "cached_tokens",
      component: "cache_read",
    });
    expect(geminiSku("Generate content output token count gemini 3.1 flash lite preview text")?.model).toBe(
      "gemini-3.1-flash-lite-preview",
    );
    expect(geminiSku("GenerateContent text output token count for Gemini 2.0 Flash")).toEqual({
      model: "gemini-2.0-flash",
      kind: "output_tokens",
      component: "output",
    });
    expect(geminiSku("Gemini 2.5 Flash GA Text Input - Predictions")?.kind).toBe("input_tokens");
    expect(geminiSku("Gemini 2.5 Flash GA Thinking Text Output - Predictions")?.kind).toBe("output_tokens");
    expect(geminiSku("Gemini 2.5 Flash GA Input Text Caching")?.kind).toBe("cached_tokens");
    expect(geminiSku("Gemini 3 Flash Text Input Caching Storage")).toBeNull();
    expect(geminiSku("Cached content storage token hours")).toBeNull();
    expect(geminiSku("Grounding with Google Search")).toBeNull();
  });
});

describe("the Gemini reader (Cloud Billing export in BigQuery)", () => {
  it("reads the query's pages once the job completes and after a 429, per day and model, credits included", async () => {
    const stand = await bigQueryStandIn();
    stands.push(stand);
    // Gemini 2.5 Flash at $0.30 per million input tokens, $0.03 cached, $2.50 output
    // (ai.google.dev/gemini-api/docs/pricing and the Vertex AI SKUs of the same model, as found 2026-11-29):
    // 2,000,000 input are $0.60 on the Gemini API plus 1,000,000 on Vertex AI $0.30; 1,000,000 cached are
    // $0.03; 400,000 output are $1.00, less a $0.05 promotional credit the export's `credits` hold: $0.95.
    stand.state.days[dayBefore(3)] = [
      row(
        dayBefore(3),
        "Gemini API",
        "Generate content input token count gemini 2.5 flash short input text",
        "count",
        2_000_000,
        "0.6",
      ),
      row(
        dayBefore(3),
        "Gemini API",
        "Generate content cached input token count gemini 2.5 flash input text",
        "count",
        1_000_000,
        "0.03",
      ),
      row(
        dayBefore(3),
        "Gemini API",
        "Generate content output token count gemini 2.5 flash text",
        "count",
        400_000,
        "0.95",
      ),
      row(dayBefore(3), "Gemini API", "Cached content storage token hours", "hour", 12, "0.123456789"),
      row(dayBefore(3), "Vertex AI", "Gemini 2.5 Flash GA Text Input - Predictions", "count", 1_000_000, "0.3"),
    ];
    stand.state.days[dayBefore(1)] = [
      row(
        dayBefore(1),
        "Gemini API",
        "Generate content output token count gemini 2.5 flash text",
        "count",
        100_000,
        "0.25",
      ),
    ];
    // The day in progress: the export already has some of it, never compared.
    stand.state.days[dayBefore(0)] = [
      row(dayBefore(0), "Gemini API", "Generate content output token count gemini 2.5 flash text", "count", 9, "0.01"),
    ];
    stand.state.throttle = 1;
    stand.state.pendingPolls = 2;
    const figures = await readGemini(reader(stand), TABLE, range);
    expect(figures).toEqual([
      {
        day: dayBefore(3),
        model: "Gemini API: Cached content storage token hours",
        tokens: { input_tokens: 0, cached_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0 },
        cost_nanos: 123_456_789n,
        components: {},
      },
      {
        day: dayBefore(3),
        model: "gemini-2.5-flash",
        // Gemini's convention, which clients send: the prompt's count includes the cached tokens.
        tokens: {
          input_tokens: 4_000_000,
          cached_tokens: 1_000_000,
          output_tokens: 400_000,
          cache_creation_input_tokens: 0,
        },
        cost_nanos: 1_880_000_000n,
        components: { input: 900_000_000n, cache_read: 30_000_000n, output: 950_000_000n },
      },
      {
        day: dayBefore(1),
        model: "gemini-2.5-flash",
        tokens: { input_tokens: 0, cached_tokens: 0, output_tokens: 100_000, cache_creation_input_tokens: 0 },
        cost_nanos: 250_000_000n,
        components: { output: 250_000_000n },
      },
    ]);
    const [throttled, first, ...reads] = stand.state.requests;
    expect(throttled?.method).toBe("POST");
    expect(first?.path).toBe("/bigquery/v2/projects/usage-worker-project/queries");
    expect(first?.headers.authorization).toBe("Bearer stand-in-access-token");
    const sent = first?.body as { query: string; queryParameters: Array<{ name: string; parameterType: unknown }> };
    expect(sent.query).toContain(`FROM \`${TABLE}\``);
    expect(sent.query).toContain("UNNEST(credits)");
    expect(sent.queryParameters.map((p) => p.name).sort()).toEqual(["from", "services", "to"]);
    expect(sent.queryParameters.find((p) => p.name === "from")?.parameterType).toEqual({ type: "TIMESTAMP" });
    expect(JSON.stringify(sent.queryParameters)).toContain(GEMINI_SERVICES[0]);
    // jobs.query answered while the job ran, one poll more did too, then seven rows came at two a page.
    expect(reads.length).toBe(5);
    expect(reads.at(-1)?.query.get("pageToken")).toBe("offset-6");
  });

  it("reads a restated day as restated, and an empty range as nothing", async () => {
    const stand = await bigQueryStandIn();
    stands.push(stand);
    const sku = "Generate content input token count gemini 2.5 flash short input text";
    stand.state.days[dayBefore(2)] = [row(dayBefore(2), "Gemini API", sku, "count", 1_000_000, "0.3")];
    const first = await readGemini(reader(stand), TABLE, range);
    expect(first[0]?.tokens.input_tokens).toBe(1_000_000);
    // The export fills in late: the day's later rows change its sums.
    stand.state.days[dayBefore(2)] = [row(dayBefore(2), "Gemini API", sku, "count", 1_500_000, "0.45")];
    const again = await readGemini(reader(stand), TABLE, range);
    expect(again[0]?.tokens.input_tokens).toBe(1_500_000);
    expect(again[0]?.cost_nanos).toBe(450_000_000n);
    stand.state.days = {};
    expect(await readGemini(reader(stand), TABLE, range)).toEqual([]);
  });

  it("fails with a message that names neither the table nor BigQuery's own words", async () => {
    const stand = await bigQueryStandIn();
    stands.push(stand);
    stand.state.failWith = { code: 404, reason: "notFound", message: `Not found: Table ${TABLE.replace(".", ":")}` };
    const failure = await readGemini(reader(stand), TABLE, range).catch((error: Error) => error);
    expect(String(failure)).toMatch(/billing export table was not found/);
    expect(String(failure)).not.toContain("gcp_billing_export_v1_0123AB_CDEF45_6789AB");
    stand.state.failWith = undefined;
    stand.state.throttle = 10;
    await expect(readGemini(reader(stand), TABLE, range)).rejects.toThrow(/rate limited/);
    await expect(readGemini(reader(stand), "not a table`; DROP", range)).rejects.toThrow(
      /does not name a BigQuery table/,
    );
  });

  it("refuses an amount in another currency, and a query past its pages", async () => {
    const stand = await bigQueryStandIn();
    stands.push(stand);
    stand.state.days[dayBefore(1)] = [
      { ...row(dayBefore(1), "Gemini API", "Grounding with Google Search", "count", 3, "1"), currency: "TWD" },
      row(dayBefore(1), "Gemini API", "Grounding with Google Search", "count", 3, "1"),
      row(dayBefore(1), "Gemini API", "Grounding with Google Search", "count", 3, "1"),
    ];
    await expect(readGemini(reader(stand), TABLE, range)).rejects.toThrow(/in TWD, not USD/);
    await expect(readGemini(reader(stand, { maxPages: 1 }), TABLE, range)).rejects.toThrow(/more than 1 pages/);
  });
});
