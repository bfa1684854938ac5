import { type CallPairing, decideCalls, type SpanSlot, slotKeys } from "./one-call-once.ts";

export interface MemoryPairingOptions {
  /** Slots kept; the oldest go first. */
  maxEntries?: number;
  /** How long a slot is remembered: longer than an exporter's batching and retries take. */
  ttlMs?: number;
  now?: () => number;
}

/** About 200 bytes a slot: some 60 MB at most. */
export const MEMORY_PAIRING_MAX_ENTRIES = 300_000;
export const MEMORY_PAIRING_TTL_MS = 15 * 60_000;

/**
 * The pairing one instance keeps alone, for a gateway without the shared store (tests, a single
 * instance): exact for exports reaching this instance only (decisions/0034).
 */
export function memoryPairing(options: MemoryPairingOptions = {}): CallPairing {
  const max = options.maxEntries ?? MEMORY_PAIRING_MAX_ENTRIES;
  const ttlMs = options.ttlMs ?? MEMORY_PAIRING_TTL_MS;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { slot: SpanSlot; at: number }>();
  const read = (key: string): SpanSlot | undefined => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (now() - entry.at <= ttlMs) return entry.slot;
    entries.delete(key);
    return undefined;
  };
  const write = (key: string, slot: SpanSlot) => {
    entries.delete(key);
    if (entries.size >= max) {
      const oldest = entries.keys().next();
      if (!oldest.done) entries.delete(oldest.value);
    }
    entries.set(key, { slot, at: now() });
  };

  return {
    async decide(organization, calls) {
      const slots = new Map<string, SpanSlot>();
      for (const key of slotKeys(calls)) {
        const slot = read(`${organization}/${key}`);
        if (slot) slots.set(key, slot);
      }
      const { decisions, changed } = decideCalls(slots, calls);
      for (const key of changed) write(`${organization}/${key}`, slots.get(key) as SpanSlot);
      return decisions;
    },
  };
}
