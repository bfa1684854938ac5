import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitWrites, recordWrites, type SeedWrite } from "../../scripts/lib/seed-usage.ts";
import { type JsonResponse, startTestGateway } from "../setup/gateway.ts";
import { firestore, pullableTopic, seedOrganization } from "../setup/harness.ts";
import { idsOf, workerStore } from "../setup/records.ts";

// The page token of GET /usage/records is stable while records arrive (docs/decisions/0023): a listing
// reads every page on the snapshot of its first, so a record stored during the paging (a new one, or one
// received earlier than the cursor but committed late) is neither listed halfway nor allowed to shift a
// page boundary, and no record that was there at the first page is skipped or repeated.

const FROM = Date.parse("2026-06-01T00:00:00.000Z");
const DAY = 86_400_000;
const EXISTING = 1_500;
const ARRIVALS = 1_000;
/** Receive times to the minute, so that many records share one and the message id breaks the tie. */
const minuteIn = (fraction: number) => new Date(FROM + Math.floor(fraction * (DAY / 60_000)) * 60_000).toISOString();

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let clock = () => new Date();
beforeAll(async () => {
  const topic = await pullableTopic();
  gateway = await startTestGateway({ topicName: topic.topicName, now: () => clock() });
});
afterAll(() => gateway.close());

const getter = (key: string) => async (query: string) => {
  const response: JsonResponse = await fetch(`${gateway.baseUrl}/usage/records?${query}`, {
    headers: { "x-api-key": key },
  });
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body as { records: Array<{ message_id: string; received_at: string }>; next_page_token?: string };
};
const next = (token: string | undefined) => (token ? `&page_token=${encodeURIComponent(token)}` : "");

/** Seeds records as the worker writes them, in one bulk write; answers their message ids. */
async function seed(organizationId: string, receivedAt: string[]): Promise<string[]> {
  const writes: SeedWrite[] = [];
  const ids: string[] = [];
  for (const received_at of receivedAt) {
    const [record, ...rollups] = recordWrites(firestore(), organizationId, [], { received_at });
    ids.push((record as SeedWrite).ref.id);
    writes.push(record as SeedWrite, ...rollups);
  }
  await commitWrites(firestore(), writes);
  return ids;
}

describe("paging GET /usage/records while records arrive", () => {
  it("neither skips nor repeats a record while 1,000 records are stored through the worker", async () => {
    const org = await seedOrganization();
    const existing = await seed(
      org.organizationId,
      Array.from({ length: EXISTING }, () => minuteIn(Math.random())),
    );
    const get = getter(org.readKey);
    const range = `from=${new Date(FROM).toISOString()}&to=${new Date(FROM + DAY).toISOString()}`;

    // The arrivals: half received late in the range (the newest end, ahead of the first page), half received
    // anywhere in it but committed now, below and above wherever the cursor stands. Eight at a time, through
    // the worker's handler and record store, as Pub/Sub pushes them.
    const store = workerStore();
    const arrivals: Array<{ id: string; receivedAt: string; started: number; done: number }> = [];
    let cursorAt = "9999";
    let belowCursor = 0;
    let stored = 0;
    const arrive = async (index: number) => {
      const receivedAt = index % 2 === 0 ? minuteIn(0.99 + Math.random() * 0.01) : minuteIn(Math.random());
      const started = performance.now();
      const id = await store(org.organizationId, receivedAt);
      if (receivedAt < cursorAt) belowCursor++;
      arrivals.push({ id, receivedAt, started, done: performance.now() });
      stored++;
    };
    let index = 0;
    const workers = Array.from({ length: 8 }, async () => {
      while (index < ARRIVALS) await arrive(index++);
    });
    const storedAtLeast = async (count: number) => {
      while (stored < Math.min(count, ARRIVALS)) await new Promise((resolve) => setTimeout(resolve, 5));
    };

    // Page through with the default limit while they arrive, letting about 60 in between two pages.
    await storedAtLeast(40);
    const firstAsked = performance.now();
    let page = await get(range);
    const firstAnswered = performance.now();
    expect(page.records).toHaveLength(100);
    const listed = idsOf(page);
    const order = [...page.records];
    for (let pages = 1; page.next_page_token; pages++) {
      cursorAt = page.records.at(-1)?.received_at ?? cursorAt;
      await storedAtLeast(40 + pages * 60);
      page = await get(`${range}${next(page.next_page_token)}`);
      listed.push(...idsOf(page));
      order.push(...page.records);
    }
    const storedWhilePaging = stored;
    await Promise.all(workers);

    // Never twice, and in order: newest received first, the message id breaking ties.
    expect(new Set(listed).size).toBe(listed.length);
    for (let i = 1; i < order.length; i++) {
      const [before, after] = [order[i - 1], order[i]] as [(typeof order)[0], (typeof order)[0]];
      const key = (record: typeof before) => `${record.received_at} ${record.message_id}`;
      expect(key(before) > key(after), `${key(before)} before ${key(after)}`).toBe(true);
    }
    // Everything there when the first page was asked for is listed; nothing stored after it was answered is.
    const seen = new Set(listed);
    const before = arrivals.filter((arrival) => arrival.done < firstAsked).map((arrival) => arrival.id);
    const after = arrivals.filter((arrival) => arrival.started > firstAnswered).map((arrival) => arrival.id);
    expect(existing.filter((id) => !seen.has(id))).toEqual([]);
    expect(before.filter((id) => !seen.has(id))).toEqual([]);
    expect(after.filter((id) => seen.has(id))).toEqual([]);
    expect(listed.length).toBeLessThanOrEqual(EXISTING + ARRIVALS - after.length);
    // The paging really met arrivals: most were stored while it ran, many received below the cursor.
    expect(after.length).toBeGreaterThan(ARRIVALS / 2);
    expect(storedWhilePaging).toBeGreaterThan(ARRIVALS * 0.8);
    expect(belowCursor).toBeGreaterThan(100);

    // A new listing, once they have all arrived, has every record once.
    const again: string[] = [];
    let token: string | undefined;
    do {
      const body = await get(`${range}&limit=1000${next(token)}`);
      again.push(...idsOf(body));
      token = body.next_page_token;
    } while (token);
    expect(again.length).toBe(EXISTING + ARRIVALS);
    expect(new Set(again)).toEqual(new Set([...existing, ...arrivals.map((arrival) => arrival.id)]));
  }, 240_000);

  it("goes on at the present, still in order, once the snapshot is older than Firestore keeps versions", async () => {
    const org = await seedOrganization();
    const get = getter(org.readKey);
    const ids = await seed(
      org.organizationId,
      [0.9, 0.8, 0.7, 0.6].map((fraction) => minuteIn(fraction)),
    );
    const range = `from=${new Date(FROM).toISOString()}&to=${new Date(FROM + DAY).toISOString()}&limit=2`;
    const first = await get(range);
    expect(idsOf(first)).toEqual(ids.slice(0, 2));
    // Received before the cursor, committed after the first page.
    const late = await workerStore()(org.organizationId, minuteIn(0.75));

    // Within the snapshot's time, the late record is not part of this listing.
    expect(idsOf(await get(`${range}${next(first.next_page_token)}`))).toEqual(ids.slice(2, 4));
    // Two hours on, Firestore no longer holds that snapshot: the listing goes on at the present, from the
    // same place, so the late record is there and nothing before the cursor comes again.
    const real = clock;
    clock = () => new Date(Date.now() + 2 * 3_600_000);
    try {
      const later = await get(`${range}${next(first.next_page_token)}`);
      expect(idsOf(later)).toEqual([late, ids[2]]);
      const last = await get(`${range}${next(later.next_page_token)}`);
      expect(idsOf(last)).toEqual([ids[3]]);
      expect(last.next_page_token).toBeUndefined();
    } finally {
      clock = real;
    }
  });
});
