import { handleMessage } from "@usage-ingestion/records";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { validTransaction } from "../setup/fixtures.ts";
import { firestore, uniqueId } from "../setup/harness.ts";
import { envelope, pushEvent, workerDeps } from "../setup/worker.ts";

async function admin(...args: string[]) {
  const lines: string[] = [];
  await runAdmin(args, firestore(), (line) => lines.push(line));
  return lines;
}

const SOURCE = "https://vendor.example/pricing";
/** Each test prices a model of its own: the platform list is one document, shared by every organization. */
const launched = () => uniqueId("gpt-launch").toLowerCase();
const price = (model: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    provider: "openai",
    model,
    effective_from: "2025-10-01T00:00:00Z",
    source_url: SOURCE,
    input_mtok: "2",
    output_mtok: "8",
    ...extra,
  });
/** 1,200 input tokens x $2/M + 300 output x $8/M = $0.0024 + $0.0024 = 4,800,000 nanos. */
const tokens = (model: string) => validTransaction({ model });

async function record(org: string, messageId: string) {
  return (await firestore().doc(DOCUMENT_PATHS.transaction(org, messageId)).get()).data();
}

describe("admin pricing catalog: the platform-wide price list", () => {
  it("adds, lists, explains and removes an entry, with its source page", async () => {
    const model = launched();
    expect(await admin("pricing", "catalog", "add", price(model))).toEqual([
      `added openai/${model} effective 2025-10-01T00:00:00Z from ${SOURCE}`,
    ]);
    const list = JSON.parse((await admin("pricing", "catalog", "list")).join("\n"));
    expect(list.prices).toContainEqual(JSON.parse(price(model)));

    const explained = await admin(
      "pricing",
      "catalog",
      "explain",
      "openai",
      `${model}-2026-01-01`,
      "--at",
      "2026-01-02T00:00:00Z",
    );
    expect(explained[0]).toBe(
      `openai model "${model}-2026-01-01" priced by the platform list as "${model}", received at 2026-01-02T00:00:00.000Z, tier standard`,
    );
    expect(explained).toContain("  input_mtok             $2 per 1,000,000 tokens");

    expect(await admin("pricing", "catalog", "add", price(model, { output_mtok: "9" }))).toEqual([
      `replaced openai/${model} effective 2025-10-01T00:00:00Z`,
      `added openai/${model} effective 2025-10-01T00:00:00Z from ${SOURCE}`,
    ]);
    const removed = await admin(
      "pricing",
      "catalog",
      "remove",
      "openai",
      model,
      "--effective-from",
      "2025-10-01T00:00:00Z",
    );
    expect(removed[0]).toMatch(
      new RegExp(`^removed openai/${model} effective 2025-10-01T00:00:00.000Z; \\d+ platform price\\(s\\) left$`),
    );
    await expect(
      admin("pricing", "catalog", "remove", "openai", model, "--effective-from", "2025-10-01T00:00:00Z"),
    ).rejects.toThrow(`no platform price openai/${model} effective 2025-10-01T00:00:00.000Z`);
  });

  it("refuses an entry without its source page or start, or with a misspelt key, saying which", async () => {
    const model = launched();
    const without = JSON.parse(price(model));
    delete without.source_url;
    await expect(admin("pricing", "catalog", "add", JSON.stringify(without))).rejects.toThrow(/source_url/);
    const undated = JSON.parse(price(model));
    delete undated.effective_from;
    await expect(admin("pricing", "catalog", "add", JSON.stringify(undated))).rejects.toThrow(/effective_from/);
    await expect(admin("pricing", "catalog", "add", price(model, { source_url: "vendor page" }))).rejects.toThrow(
      /source_url: prices.0.source_url must be the URL of the vendor's page/,
    );
    await expect(admin("pricing", "catalog", "add", price(model, { input_mtk: "1" }))).rejects.toThrow(
      /^unknown price key `input_mtk`; known: .*source_url$/,
    );
    await expect(admin("pricing", "catalog", "add", price(model, { provider: "custom" }))).rejects.toThrow(
      /^the price is invalid:\n {2}prices\.0\.provider: .* must be one of: openai, gemini, bedrock, anthropic, xai, deepseek$/,
    );
    await expect(admin("pricing", "catalog", "frobnicate")).rejects.toThrow(/known: add, list, remove, explain/);
  });

  it("prices a new model in the worker without a deploy, and reprice prices what came before", async () => {
    const org = uniqueId("acme");
    await admin("org", "create", org);
    const model = launched();
    const before = pushEvent(envelope(org, tokens(`${model}-2025-10-20`)));
    expect(await handleMessage(workerDeps(), before)).toBe("unpriced");
    expect((await record(org, before.id as string))?.unpriced_reason).toMatch(/^unknown_model: /);

    await admin("pricing", "catalog", "add", price(model));
    const after = pushEvent(envelope(org, tokens(model)));
    expect(await handleMessage(workerDeps(), after)).toBe("priced");
    const stored = await record(org, after.id as string);
    expect(stored).toMatchObject({
      cost_nanos: 4_800_000,
      pricing: { source: "platform", model },
    });
    expect(stored?.line_items[0].price_source).toContain(
      `platform price openai/${model} effective 2025-10-01T00:00:00Z from ${SOURCE}`,
    );

    // A longer id is another model: never priced as this one.
    const cousin = pushEvent(envelope(org, tokens(`${model}-pro`)));
    expect(await handleMessage(workerDeps(), cousin)).toBe("unpriced");

    const repriced = await admin("reprice", org);
    expect(repriced).toContain(`message ${before.id}: re-priced, openai/${model}-2025-10-20 0.004800000 USD`);
    expect(repriced.at(-1)).toBe("1 record re-priced, 1 still unpriced");
    await admin("pricing", "catalog", "remove", "openai", model, "--effective-from", "2025-10-01T00:00:00Z");
  });

  it("comes after the organization's own price and before our table", async () => {
    const org = uniqueId("acme");
    await admin("org", "create", org);
    // gpt-4o is in our table and the catalog ($2.50 / $10): the platform list wins over both.
    const at = "2025-10-01T00:00:00Z";
    await admin(
      "pricing",
      "catalog",
      "add",
      price("gpt-4o", { effective_from: at, input_mtok: "1", output_mtok: "1" }),
    );
    try {
      const platform = pushEvent(envelope(org, tokens("gpt-4o")));
      await handleMessage(workerDeps(), platform);
      // 1,500 tokens x $1/M = $0.0015 = 1,500,000 nanos.
      expect(await record(org, platform.id as string)).toMatchObject({
        cost_nanos: 1_500_000,
        pricing: { source: "platform" },
      });

      await admin("pricing", "add", org, '{"provider":"openai","model":"gpt-4o","input_mtok":"3","output_mtok":"3"}');
      const own = pushEvent(envelope(org, tokens("gpt-4o")));
      await handleMessage(workerDeps(), own);
      // 1,500 tokens x $3/M = $0.0045 = 4,500,000 nanos.
      expect(await record(org, own.id as string)).toMatchObject({
        cost_nanos: 4_500_000,
        pricing: { source: "custom" },
      });
    } finally {
      await admin("pricing", "catalog", "remove", "openai", "gpt-4o", "--effective-from", at);
    }
  });
});
