import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COST_ATTRIBUTES, COUNT_ATTRIBUTES, SCOPE_RULES, TOTAL_ATTRIBUTES } from "./dialects.ts";

const docs = readFileSync(new URL("../../../../docs/opentelemetry.md", import.meta.url), "utf8");
/** A table's cells, row by row, without the backticks. */
const rows = docs
  .split("\n")
  .filter((line) => line.startsWith("|") && !line.startsWith("| --"))
  .map((line) =>
    line
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim().replaceAll("`", "")),
  );

describe("docs/opentelemetry.md shows the dialect tables as the mapping reads them", () => {
  it("lists each count attribute, in the order read, with its dialect and what it holds", () => {
    const documented = rows.filter((row) => row.length === 4 && COUNT_ATTRIBUTES.some((a) => a.attribute === row[1]));
    expect(documented.map((row) => row[1])).toEqual(COUNT_ATTRIBUTES.map((a) => a.attribute));
    for (const [index, entry] of COUNT_ATTRIBUTES.entries()) {
      const row = documented[index] ?? [];
      expect(row[2]).toBe(entry.dialect);
      if (entry.inside !== undefined) {
        const part = entry.count === "input" ? "cache reads and writes" : "reasoning";
        expect(row[3]).toBe(`${part} ${entry.inside ? "inside" : "outside"}`);
      }
    }
    for (const total of TOTAL_ATTRIBUTES) expect(docs).toContain(`\`${total}\``);
  });

  it("lists each cost attribute, in the order read, with its dialect and currency", () => {
    const documented = rows.filter((row) => row.length === 3 && COST_ATTRIBUTES.some((a) => a.attribute === row[0]));
    expect(documented.map((row) => row[0])).toEqual(COST_ATTRIBUTES.map((a) => a.attribute));
    for (const [index, entry] of COST_ATTRIBUTES.entries()) {
      expect(documented[index]?.[1]).toBe(entry.dialect);
      expect(documented[index]?.[2]).toMatch(
        entry.currencyAttribute ? new RegExp(`^${entry.currencyAttribute};`) : /^USD/,
      );
    }
  });

  it("lists each scope rule with its versions, attributes and meaning", () => {
    for (const rule of SCOPE_RULES) {
      const row = rows.find((cells) => cells[0] === rule.scope);
      expect(row, rule.scope).toBeDefined();
      expect(row?.[1]).toBe(`up to ${rule.versions.through}`);
      expect(row?.[2]).toBe(rule.attributes.join(", "));
      expect(row?.[3]).toBe(`cache reads and writes ${rule.inside ? "inside" : "outside"}`);
    }
  });
});
