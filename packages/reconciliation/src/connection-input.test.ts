import { describe, expect, it } from "vitest";
import { checkCredential, checkMappings } from "./connection-input.ts";

describe("a vendor credential", () => {
  it("is taken in each vendor's own form, trimmed", () => {
    expect(checkCredential("openai", " sk-admin-abcdefgh12345678 ")).toBe("sk-admin-abcdefgh12345678");
    expect(checkCredential("anthropic", "sk-ant-admin01-abcdefgh12345678")).toBe("sk-ant-admin01-abcdefgh12345678");
    expect(checkCredential("gemini", "my-billing-project.billing_export.gcp_billing_export_v1_0123AB")).toContain(
      "billing_export",
    );
    expect(checkCredential("bedrock", "arn:aws:iam::123456789012:role/UsageReconciliation")).toContain("role/");
    expect(checkCredential("bedrock", `AKIAABCDEFGHIJKLMNOP:${"a".repeat(40)}`)).toContain("AKIA");
  });

  it("is refused in another form, and the message never repeats it", () => {
    const cases: Array<[Parameters<typeof checkCredential>[0], string]> = [
      ["openai", "sk-proj-notAnAdminKey12345"],
      ["anthropic", "sk-admin-abcdefgh12345678"],
      ["gemini", "not a table"],
      ["bedrock", "arn:aws:iam::12345:role/short-account"],
      ["openai", "sk-admin-abc\u202Edefgh12345678"],
      ["openai", `sk-admin-${"a".repeat(3000)}`],
      ["openai", "   "],
    ];
    for (const [vendor, credential] of cases) {
      expect(() => checkCredential(vendor, credential)).toThrow(/credential is/);
      try {
        checkCredential(vendor, credential);
      } catch (error) {
        if (credential.trim()) expect((error as Error).message).not.toContain(credential.trim());
      }
    }
  });
});

describe("mappings", () => {
  it("send the vendor's grouping ids to declared dimensions only", () => {
    expect(checkMappings("openai", { project_id: "team" }, ["team"])).toEqual({ project_id: "team" });
    expect(() => checkMappings("openai", { workspace_id: "team" }, ["team"])).toThrow(/project_id, api_key_id/);
    expect(() => checkMappings("anthropic", { workspace_id: "region" }, ["team"])).toThrow(/not a declared/);
  });
});
