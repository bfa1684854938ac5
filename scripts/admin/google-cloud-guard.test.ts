import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { confirmOnGoogleCloud, destructiveChange, guardOptions } from "./google-cloud-guard.ts";

/** A terminal as the confirmation sees one: a stream that says it is a TTY, and what was printed to it. */
function terminal(answer: string | undefined) {
  const input = Object.assign(new PassThrough(), { isTTY: true });
  const output = new PassThrough();
  let printed = "";
  output.on("data", (chunk) => {
    printed += chunk;
  });
  if (answer !== undefined) input.end(`${answer}\n`);
  return { input, output, printed: () => printed };
}

describe("the admin command line's guard for Google Cloud", () => {
  it("takes --project and --yes out of the command's arguments", () => {
    expect(guardOptions(["org", "disable", "acme", "--project", "acme-prod", "--yes"])).toEqual({
      args: ["org", "disable", "acme"],
      project: "acme-prod",
      yes: true,
    });
    expect(guardOptions(["org", "list"])).toEqual({ args: ["org", "list"], yes: false });
    expect(() => guardOptions(["org", "list", "--project"])).toThrow(/--project needs a project id/);
  });

  it("names the destructive commands and only those", () => {
    expect(destructiveChange(["org", "disable", "acme"])).toBe("disable organization acme (every key of it refused)");
    expect(destructiveChange(["key", "disable", "usk_AbCd"])).toBe("disable key usk_AbCd");
    expect(destructiveChange(["budget", "delete", "acme", "b1"])).toBe("delete budget acme b1");
    expect(destructiveChange(["webhook", "delete", "acme", "w1"])).toMatch(/^delete webhook acme w1/);
    expect(destructiveChange(["webhook", "disable", "acme", "w1"])).toBe("disable webhook acme w1");
    expect(destructiveChange(["pricing", "set", "acme", "p.json"])).toBe("replace every custom price of acme");
    expect(destructiveChange(["pricing", "remove", "acme", "openai", "gpt-4o"])).toMatch(/^remove the custom price/);
    expect(destructiveChange(["pricing", "catalog", "remove", "openai", "gpt-4o"])).toMatch(/platform price/);
    expect(destructiveChange(["dead-letters", "replay", "--all"])).toMatch(/^replay dead letters \(all\)/);
    expect(destructiveChange(["reprice", "acme"])).toBe("re-price the records of acme");
    expect(destructiveChange(["org", "connections", "delete", "acme", "openai"])).toBe(
      "remove the openai connection of acme and its credential",
    );
    expect(destructiveChange(["org", "connections", "set", "acme", "openai", "--credential-file", "k"])).toMatch(
      /^set the openai connection of acme/,
    );
    expect(destructiveChange(["org", "connections", "list", "acme"])).toBeUndefined();
    for (const safe of [
      ["org", "list"],
      ["org", "enable", "acme"],
      ["org", "create", "acme"],
      ["key", "create", "acme"],
      ["key", "list", "acme"],
      ["pricing", "catalog", "list"],
      ["reprice", "acme", "--dry-run"],
      ["dead-letters", "list"],
      ["costs", "acme"],
    ]) {
      expect(destructiveChange(safe), safe.join(" ")).toBeUndefined();
    }
  });

  it("asks in a terminal and goes on only when the project's id is typed", async () => {
    const yes = terminal("acme-prod");
    await expect(
      confirmOnGoogleCloud({ change: "disable key usk_A", project: "acme-prod", yes: false, ...yes }),
    ).resolves.toBeUndefined();
    expect(yes.printed()).toBe("disable key usk_A in Google Cloud project acme-prod? Type the project id to go on: ");

    const no = terminal("y");
    await expect(
      confirmOnGoogleCloud({ change: "disable key usk_A", project: "acme-prod", yes: false, ...no }),
    ).rejects.toThrow("not confirmed; nothing changed");
  });

  it("refuses without a terminal unless --yes is given, and --yes asks nothing", async () => {
    const piped = Object.assign(new PassThrough(), { isTTY: false });
    piped.end("acme-prod\n");
    await expect(
      confirmOnGoogleCloud({
        change: "disable key usk_A",
        project: "acme-prod",
        yes: false,
        input: piped,
        output: new PassThrough(),
      }),
    ).rejects.toThrow(/needs a confirmation: run it in a terminal, or add --yes/);
    const silent = terminal(undefined);
    await expect(
      confirmOnGoogleCloud({ change: "disable key usk_A", project: "acme-prod", yes: true, ...silent }),
    ).resolves.toBeUndefined();
    expect(silent.printed()).toBe("");
  });
});
