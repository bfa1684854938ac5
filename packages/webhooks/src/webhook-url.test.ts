import { describe, expect, it } from "vitest";
import { parseWebhookUrl } from "./webhook-input.ts";

describe("a webhook's URL against production (no emulator)", () => {
  it("refuses this machine, over http or https, and keeps a public https URL", () => {
    for (const url of ["http://localhost:9999/x", "https://localhost/x", "https://127.0.0.1/x", "http://[::1]/x"]) {
      expect(() => parseWebhookUrl(url, false), url).toThrow(/names this machine/);
    }
    expect(parseWebhookUrl("https://hooks.example.com/budgets", false)).toBe("https://hooks.example.com/budgets");
  });

  it("takes this machine over http on the local stack", () => {
    expect(parseWebhookUrl("http://localhost:9999/x", true)).toBe("http://localhost:9999/x");
  });
});
