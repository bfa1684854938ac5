import { describe, expect, it } from "vitest";
import { auditEntry, operatorChange } from "./audit-entry.ts";
import { REDACTED, withoutSecrets } from "./without-secrets.ts";

describe("an audit entry", () => {
  it("never holds a secret, whatever the caller passes", () => {
    const entry = auditEntry(
      operatorChange("ops@example.com", "run-1"),
      {
        action: "webhook.created",
        target: { type: "webhook", id: "wh_1" },
        after: { url: "https://x.test", secret: "whsec_abc", secrets: [{ encrypted: "…" }], note: "usk_live" },
      },
      new Date("2026-01-01T00:00:00Z"),
    );
    expect(JSON.stringify(entry)).not.toMatch(/whsec_abc|usk_live|encrypted/);
    expect(entry.changes).toEqual({ before: null, after: { url: "https://x.test", note: REDACTED } });
    expect(entry.actor).toEqual({ type: "operator", id: "ops@example.com" });
  });

  it("keeps what is not secret as it is", () => {
    expect(withoutSecrets({ dimensions: ["a"], n: 1, nested: { ok: true } })).toEqual({
      dimensions: ["a"],
      n: 1,
      nested: { ok: true },
    });
  });
});
