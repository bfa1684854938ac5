import { describe, expect, it } from "vitest";
import { normalizeEmail } from "./emails.ts";
import type { MemberDocument } from "./member-documents.ts";
import { MembersError } from "./member-errors.ts";
import { assertKeepsAnOwner, invitedMember } from "./member-rules.ts";

const owner: MemberDocument = {
  email: "a@example.com",
  role: "owner",
  status: "active",
  invited_by: "operator:test",
  invited_at: "2026-01-01T00:00:00.000Z",
  joined_at: "2026-01-01T00:00:00.000Z",
};

describe("the last owner", () => {
  it("may not be demoted or removed", () => {
    for (const change of ["admin", "viewer", undefined] as const) {
      expect(() => assertKeepsAnOwner(owner, change, 1)).toThrow(MembersError);
    }
    try {
      assertKeepsAnOwner(owner, undefined, 1);
    } catch (error) {
      expect((error as MembersError).reason).toBe("conflict");
    }
  });

  it("may stay an owner, and may go when another active owner stays", () => {
    expect(() => assertKeepsAnOwner(owner, "owner", 1)).not.toThrow();
    expect(() => assertKeepsAnOwner(owner, "viewer", 2)).not.toThrow();
    expect(() => assertKeepsAnOwner(owner, undefined, 2)).not.toThrow();
  });

  it("is never an invited owner: withdrawing that invitation is always allowed", () => {
    expect(() => assertKeepsAnOwner({ ...owner, status: "invited" }, undefined, 1)).not.toThrow();
    expect(() => assertKeepsAnOwner({ ...owner, role: "admin" }, "viewer", 1)).not.toThrow();
  });
});

describe("invitations", () => {
  it("start invited, with who invited and no join time", () => {
    const member = invitedMember("b@example.com", "viewer", "a@example.com", new Date("2026-02-03T04:05:06Z"));
    expect(member).toEqual({
      email: "b@example.com",
      role: "viewer",
      status: "invited",
      invited_by: "a@example.com",
      invited_at: "2026-02-03T04:05:06.000Z",
      joined_at: null,
    });
  });
});

describe("emails", () => {
  it("are lower-cased so one mailbox is one member", () => {
    expect(normalizeEmail(" Dev@Example.COM ")).toBe("dev@example.com");
  });

  it("refuse what cannot be a key or an address", () => {
    for (const bad of [
      "",
      "no-at",
      "a@b/c",
      "a/b@c",
      "a b@c",
      "@c",
      "a@",
      "a..b@c",
      42,
      null,
      `${"a".repeat(250)}@e.com`,
    ]) {
      expect(normalizeEmail(bad)).toBeUndefined();
    }
  });
});
