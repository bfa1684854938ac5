import { declaredDimensions } from "@usage-ingestion/reports";
import { describe, expect, it } from "vitest";
import { validateTransaction } from "../validate-transaction.ts";
import { parseQueueMessage, QUEUE_SCHEMA_VERSION } from "./queue-message.ts";

// Built from JSON text, as a request body is: only JSON.parse makes `__proto__` an own key.
const text =
  '{"provider":"openai","model":"gpt-4o","usage":[{"type":"tokens","metrics":{"input_tokens":10,"output_tokens":5,' +
  '"total_tokens":15,"__proto__":{"m":1},"constructor":2}}],"context":{"billable_customer_id":"c",' +
  '"__proto__":{"polluted":true},"prototype":"p","constructor":{"c":3}}}';

const ownKeys = (value: unknown) => Object.keys(value as object);

describe("keys that Valibot's looseObject leaves out", () => {
  it("are kept in context and metrics by the gateway's validation, as data", () => {
    const result = validateTransaction(JSON.parse(text));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const { context, usage } = result.transaction;
    expect(ownKeys(context)).toEqual(["billable_customer_id", "__proto__", "prototype", "constructor"]);
    expect(Object.getPrototypeOf(context)).toBe(Object.prototype);
    expect(ownKeys(usage[0]?.metrics)).toEqual([
      "input_tokens",
      "output_tokens",
      "total_tokens",
      "__proto__",
      "constructor",
    ]);
    // Queued as JSON, they reach the worker as they were sent.
    expect(JSON.stringify(result.transaction)).toBe(text);
  });

  it("are kept by the worker's reading of a queue message", () => {
    const message = JSON.parse(
      `{"schema_version":${QUEUE_SCHEMA_VERSION},"organization_id":"o","request_id":"0b7f0e7e-3c4e-4a55-9a43-3f1f1d2a7c10",` +
        `"transaction_index":0,"received_at":"2026-11-23T00:00:00.000Z","transaction":${text}}`,
    );
    const parsed = parseQueueMessage(message);
    if (!parsed.success) throw new Error("not parsed");
    expect(JSON.stringify(parsed.output.transaction)).toBe(text);
    expect({}).not.toHaveProperty("polluted");
  });

  it("are never read from the prototype as declared dimensions", () => {
    expect(declaredDimensions({ team: "a" }, ["team", "constructor", "toString", "__proto__"])).toEqual(
      Object.fromEntries([
        ["team", "a"],
        ["constructor", null],
        ["toString", null],
        ["__proto__", null],
      ]),
    );
    expect(declaredDimensions(JSON.parse('{"constructor":"x"}'), ["constructor"])).toEqual({ constructor: "x" });
  });
});
