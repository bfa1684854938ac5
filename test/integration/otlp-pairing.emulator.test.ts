import { Firestore } from "@google-cloud/firestore";
import { type CallPairing, firestorePairing, memoryPairing, PairingUnavailableError } from "@usage-ingestion/gateway";
import { bill, inner, outer, pairingCases } from "@usage-ingestion/gateway/testing/pairing-cases";
import { COLLECTIONS, DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { firestore, uniqueId } from "../setup/harness.ts";

/**
 * One call billed once across gateway instances: the pairing every instance shares, on the emulator.
 * Each "instance" below has its own Firestore client, as two Cloud Run instances would.
 */
const instance = () =>
  firestorePairing(new Firestore({ projectId: process.env.GOOGLE_CLOUD_PROJECT }), { timeoutMs: 20_000 });

describe("one call, billed once, in the store all instances share", () => {
  pairingCases(() => ({ pairing: instance(), organization: uniqueId("pairing") }));

  it("pairs a call's two spans exported at once to two instances, whichever goes first", async () => {
    const organization = uniqueId("pairing");
    const [first, second] = [instance(), instance()];
    const billedIds = await twoInstancesAtOnce(organization, first, second, 12);
    // Each call billed once: its wrapper and its SDK span never bill two transaction ids.
    expect(billedIds.map((ids) => ids.size)).toEqual(Array(12).fill(1));
  });

  it("is what memory alone cannot do: two instances' memories bill such a call twice", async () => {
    const billedIds = await twoInstancesAtOnce("org", memoryPairing(), memoryPairing(), 3);
    expect(billedIds.map((ids) => ids.size)).toEqual([2, 2, 2]);
  });

  it("writes a slot for the call and one for its parent, each expiring an hour on", async () => {
    const organization = uniqueId("pairing");
    const before = Date.now();
    await bill([inner("00000000000000b1", "00000000000000f0")], organization, instance());
    const slots = await firestore()
      .collection(`${DOCUMENT_PATHS.organization(organization)}/${COLLECTIONS.otlpSpanSlots}`)
      .get();
    expect(slots.size).toBe(2);
    for (const slot of slots.docs) {
      const expireAt = (slot.get("expire_at") as { toMillis(): number }).toMillis();
      expect(expireAt).toBeGreaterThanOrEqual(before + 3_600_000);
      expect(expireAt).toBeLessThan(Date.now() + 3_600_000 + 1000);
    }
    expect(slots.docs.map((slot) => slot.get("decision")).filter(Boolean)).toEqual([
      { wrapper: false, transaction_id: "msg_01" },
    ]);
  });

  it("fails, deciding nothing, when the store does not answer in time", async () => {
    // A port nothing listens on: the client keeps retrying to connect until the time-out ends the wait.
    const unreachable = new Firestore({ projectId: "pairing-down", host: "127.0.0.1", port: 9, ssl: false });
    const pairing = firestorePairing(unreachable, { timeoutMs: 300 });
    await expect(bill([inner()], "org", pairing)).rejects.toBeInstanceOf(PairingUnavailableError);
    void unreachable.terminate();
  });
});

/** For `trials` calls, the wrapper's export to one instance and the SDK span's to the other, at once. */
async function twoInstancesAtOnce(organization: string, first: CallPairing, second: CallPairing, trials: number) {
  const results: Array<Set<string>> = [];
  for (let trial = 0; trial < trials; trial++) {
    const suffix = trial.toString(16).padStart(2, "0");
    const wrapper = outer(`00000000000000${suffix}`, "00000000000000f0");
    const sdk = inner(`000000000000ff${suffix}`, wrapper.spanId, `msg_${suffix}`);
    // Alternate which instance gets which span, and which is asked first.
    const asked =
      trial % 2 === 0
        ? [bill([wrapper], organization, first), bill([sdk], organization, second)]
        : [bill([sdk], organization, second), bill([wrapper], organization, first)];
    const billed = (await Promise.all(asked)).flat();
    results.push(new Set(billed.map(([, id]) => String(id))));
  }
  return results;
}
