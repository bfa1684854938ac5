import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway } from "../setup/gateway.ts";
import { pullableTopic, seedOrganization } from "../setup/harness.ts";
import { idsOf, minutesAgo, workerStore } from "../setup/records.ts";
import { reportFixture } from "../setup/reports.ts";

// Who may read which records: only the organization's own read keys, only its own records; page tokens
// are signed, so a forged one, another key's, or another organization's is refused.

let fixture: Awaited<ReturnType<typeof reportFixture>>;
let other: Awaited<ReturnType<typeof seedOrganization>>;
let otherRecord: string;
beforeAll(async () => {
  fixture = await reportFixture(
    [],
    Array.from({ length: 6 }, (_, i) => ({ received_at: minutesAgo(10 + i), customer: "acme" })),
  );
  other = await seedOrganization();
  otherRecord = await workerStore()(other.organizationId, minutesAgo(5), {
    context: { billable_customer_id: "acme" },
  });
});
afterAll(() => fixture.gateway.close());

const body = async (response: Response) => ({ status: response.status, body: await response.json() });

describe("organizations", () => {
  it("lists only the key's own organization's records", async () => {
    const mine = await (await fixture.get("/usage/records?billable_customer_id=acme")).json();
    expect(mine.records).toHaveLength(6);
    expect(idsOf(mine)).not.toContain(otherRecord);
    const theirs = await (await fixture.get("/usage/records?billable_customer_id=acme", other.readKey)).json();
    expect(idsOf(theirs)).toEqual([otherRecord]);
  });

  it("answers another organization's record exactly as one that does not exist", async () => {
    const foreign = await body(await fixture.get(`/usage/records/${otherRecord}`));
    const missing = await body(await fixture.get("/usage/records/m-never-stored"));
    expect(foreign).toEqual(missing);
    expect(foreign).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
    expect(JSON.stringify(foreign)).not.toContain(other.organizationId);
    expect((await fixture.get(`/usage/records/${otherRecord}`, other.readKey)).status).toBe(200);
  });
});

describe("keys", () => {
  it("refuses an ingest key with 401, as on the other read routes", async () => {
    for (const path of ["/usage/records", `/usage/records/${otherRecord}`]) {
      const answer = await body(await fixture.get(path, fixture.apiKey));
      expect(answer).toEqual({
        status: 401,
        body: { error: { code: "unauthorized", message: "The API key is invalid or missing." } },
      });
      expect((await fixture.get(path, other.apiKey)).status).toBe(401);
      expect((await fixture.get(path, "usk_not-a-key")).status).toBe(401);
      const anonymous = await body(await fetch(`${fixture.gateway.baseUrl}${path}`));
      expect(anonymous).toEqual({
        status: 401,
        body: { error: { code: "unauthorized", message: "The X-Api-Key header is required." } },
      });
    }
  });
});

describe("page tokens", () => {
  const firstToken = async (key = fixture.readKey) => {
    const page = await (await fixture.get("/usage/records?limit=2&billable_customer_id=acme", key)).json();
    expect(page.next_page_token).toEqual(expect.any(String));
    return page.next_page_token as string;
  };
  const refusedAt = async (token: string, key = fixture.readKey) => {
    const answer = await body(
      await fixture.get(
        `/usage/records?limit=2&billable_customer_id=acme&page_token=${encodeURIComponent(token)}`,
        key,
      ),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.error.code).toBe("validation_error");
    expect(answer.body.error.details).toEqual([
      expect.objectContaining({ field: "page_token", code: "invalid_value" }),
    ]);
  };

  it("refuses a token whose position was changed, keeping its signature", async () => {
    const token = await firstToken();
    const [payload, signature] = token.split(".") as [string, string];
    const position = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    // Jump back to the start of the listing, or read at another time.
    const moved = [...position.slice(0, 5), "2999-01-01T00:00:00.000Z", position[6]];
    await refusedAt(`${Buffer.from(JSON.stringify(moved)).toString("base64url")}.${signature}`);
    const earlier = [position[0], position[1] - 60, ...position.slice(2)];
    await refusedAt(`${Buffer.from(JSON.stringify(earlier)).toString("base64url")}.${signature}`);
    // A signature changed in one character.
    const flipped = signature.startsWith("A") ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    await refusedAt(`${payload}.${flipped}`);
    await refusedAt(payload);
    await refusedAt(`${payload}.${signature}.${signature}`);
  });

  it("refuses a token signed with another key", async () => {
    const topic = await pullableTopic();
    const elsewhere = await startTestGateway({ topicName: topic.topicName, pageTokenKey: "k".repeat(44) });
    try {
      const page = await (
        await fetch(`${elsewhere.baseUrl}/usage/records?limit=2&billable_customer_id=acme`, {
          headers: { "x-api-key": fixture.readKey },
        })
      ).json();
      await refusedAt(page.next_page_token);
    } finally {
      await elsewhere.close();
    }
  });

  it("refuses another organization's token, even with the same filters", async () => {
    await seedMore();
    const theirs = await firstToken(other.readKey);
    await refusedAt(theirs);
    await refusedAt(await firstToken(), other.readKey);
  });

  it("refuses parameters named like Object's own properties", async () => {
    for (const name of ["constructor", "__proto__", "hasOwnProperty", "toString"]) {
      const answer = await body(await fixture.get(`/usage/records?${name}=x`));
      expect(answer.status).toBe(400);
      expect(answer.body.error.details).toEqual([
        { field: name, code: "invalid_value", message: `${name} is not a parameter of this route` },
      ]);
    }
  });
});

/** The other organization gets enough records for a second page of its own. */
async function seedMore() {
  const store = workerStore();
  for (const minutes of [6, 7]) {
    await store(other.organizationId, minutesAgo(minutes), { context: { billable_customer_id: "acme" } });
  }
}
