import { describe, expect, it } from "vitest";
import { bill, inner, outer, pairingCases, span } from "../testing/pairing-cases.ts";
import { readCalls } from "./billable-calls.ts";
import type { DecodedSpan } from "./decode.ts";
import { memoryPairing } from "./memory-pairing.ts";

describe("one call, billed once, in one instance's memory", () => {
  pairingCases(() => ({ pairing: memoryPairing(), organization: "org" }));

  it("forgets after its time", async () => {
    let now = 0;
    const pairing = memoryPairing({ ttlMs: 1000, now: () => now });
    await bill([inner()], "org", pairing);
    expect(await bill([outer()], "org", pairing)).toHaveLength(0);
    now = 2000;
    expect(await bill([outer("00000000000000a1", "00000000000000f1")], "org", pairing)).toHaveLength(1);
  });

  it("holds at most its entries, the oldest going first", async () => {
    const pairing = memoryPairing({ maxEntries: 2 });
    await bill([inner()], "org", pairing);
    // Two more slots push out the inner call's and its parent's: the wrapper is then billed.
    await bill([inner("00000000000000b7", "00000000000000f7", "msg_07")], "org", pairing);
    expect(await bill([outer()], "org", pairing)).toHaveLength(1);
  });

  it("fills the inner span's missing cache count from its wrapper when both report the same call", () => {
    const openai = { "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o-mini" };
    const wrapper = span("00000000000000a1", "", {
      ...openai,
      "gen_ai.provider.name": "openai",
      "gen_ai.usage.input_tokens": 2006,
      "gen_ai.usage.output_tokens": 300,
      "gen_ai.usage.cache_read.input_tokens": 1920,
    });
    const innerOf = (input: number) =>
      span("00000000000000b1", "00000000000000a1", {
        ...openai,
        "gen_ai.system": "openai",
        "gen_ai.response.id": "chatcmpl-1",
        "gen_ai.usage.input_tokens": input,
        "gen_ai.usage.output_tokens": 300,
      });
    const metrics = (spans: DecodedSpan[]) =>
      readCalls(spans, {}).flatMap(({ verdict, wrapsInExport }) =>
        !wrapsInExport && verdict.kind === "transaction"
          ? [(verdict.transaction.usage as Array<{ metrics: unknown }>)[0]?.metrics]
          : [],
      );
    expect(metrics([innerOf(2006), wrapper])).toEqual([
      { input_tokens: 2006, output_tokens: 300, total_tokens: 2306, cache_read_input_tokens: 1920 },
    ]);
    // Not the same counts: not taken as the same report.
    expect(metrics([innerOf(2000), wrapper])).toEqual([{ input_tokens: 2000, output_tokens: 300, total_tokens: 2300 }]);
  });
});
