import {
  QUEUE_SCHEMA_VERSION,
  type QueueMessage,
  QueueMessageSchema,
  type Transaction,
  TransactionSchema,
  validateTransaction,
} from "@usage-ingestion/shared";
import fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { validTransaction } from "../../../../test/setup/fixtures.ts";
import { queueMessageData } from "./queue-message-json.ts";
import { transactionTexts } from "./transaction-texts.ts";

/** What the gateway does with a body's text: judge each transaction, then find the texts to send. */
function textsOf(text: string | Buffer) {
  const body = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  const parsed = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
  const bulk = "transactions" in parsed;
  const inputs = bulk ? (parsed.transactions as unknown[]) : [parsed];
  const valid = inputs.flatMap((input, index) => {
    const judged = validateTransaction(input);
    return judged.ok ? [{ index, transaction: judged.transaction }] : [];
  });
  const texts = transactionTexts(body, { bulk, transactions: inputs.length }, valid);
  return { valid, texts: valid.map((_, n) => texts[n]?.toString("utf8")) };
}

const message = (transaction: Transaction, index: number): QueueMessage => ({
  schema_version: QUEUE_SCHEMA_VERSION,
  organization_id: "org-1",
  request_id: "7f0c5c9e-3f39-4c4e-9d55-6f4c3c1f3b2a",
  transaction_index: index,
  received_at: "2026-11-22T10:00:00.000Z",
  transaction,
});

const numbersIn = (value: unknown): number[] =>
  typeof value === "number"
    ? [value]
    : typeof value === "object" && value !== null
      ? Object.values(value).flatMap(numbersIn)
      : [];

/** What the worker reads out of a message's data. */
const workerReads = (data: string | Uint8Array[]) =>
  v.parse(QueueMessageSchema, JSON.parse(typeof data === "string" ? data : Buffer.concat(data).toString("utf8")));

describe("a transaction's own text, sent instead of serialising it again", () => {
  it("is used when the body holds the transaction as validated, whatever its spacing and key order", () => {
    const one = JSON.stringify(validTransaction({ context: { environment: "prod", billable_customer_id: "c-1" } }));
    const spaced = JSON.stringify(validTransaction(), null, 2);
    expect(textsOf(one).texts).toEqual([one]);
    expect(textsOf(` \n${spaced}\n`).texts).toEqual([spaced]);
    expect(textsOf(`{"ignored":[{"transactions":1}],"transactions":[${one},{"model":1},${spaced}]}`).texts).toEqual([
      one,
      spaced,
    ]);
  });

  it("is not used when the text holds more than the validated transaction, or numbers that would change", () => {
    const base = JSON.stringify(validTransaction()).slice(1);
    const cases = {
      "an unknown field": `{"unknown":1,${base}`,
      "a repeated field": `{"model":"gpt-4o-mini",${base}`,
      "a repeated context key": `{"context":{"a":1,"a":2,"billable_customer_id":"c"},${base.replace(/"context":\{[^}]*\}/, '"ctx":0')}`,
      "an unknown usage entry field": `{${base.replace('{"type":"tokens"', '{"type":"tokens","note":"x"')}`,
      "-0": `{${base.replace('"environment":"test"', '"environment":-0')}`,
      "an exponent": `{${base.replace('"output_tokens":300', '"output_tokens":3e2')}`,
      "a context value past a double": `{${base.replace('"environment":"test"', `"environment":1${"0".repeat(400)}`)}`,
    };
    for (const [name, text] of Object.entries(cases)) {
      const { valid, texts } = textsOf(text);
      expect([name, valid.length, texts]).toEqual([name, 1, [undefined]]);
    }
  });

  it("is not used when the body is not UTF-8: the message holds what was read, U+FFFD for the bad bytes", () => {
    const text = JSON.stringify(validTransaction({ context: { billable_customer_id: "c-1", note: "~" } }));
    const body = Buffer.from(text, "utf8");
    body[body.indexOf("~")] = 0xff;
    const { valid, texts } = textsOf(body);
    expect(valid).toHaveLength(1);
    expect(texts).toEqual([undefined]);
  });

  it("gives the worker the same message as serialising the validated transaction would", () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    const context = fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 4 });
    const metrics = fc
      .tuple(fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 1, max: 1e9 }))
      .map(([input, output]) => ({ input_tokens: input, output_tokens: output, total_tokens: input + output }));
    const entry = fc.record({ type: fc.constant("tokens"), metrics });
    const transaction = fc.record(
      {
        provider: fc.constant("openai"),
        model: fc.constantFrom("gpt-4o", "gpt-4o-mini"),
        usage: fc.tuple(entry),
        context: context.map((extra) => ({ ...extra, billable_customer_id: "c-1" })),
        provider_usage_raw: fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 3 }),
        unknown: json,
      },
      { requiredKeys: ["provider", "model", "usage", "context"] },
    );
    const space = fc.constantFrom(undefined, 1, "\t");
    fc.assert(
      fc.property(fc.array(transaction, { minLength: 1, maxLength: 4 }), space, (transactions, indent) => {
        const body = JSON.stringify({ transactions }, null, indent);
        const { valid, texts } = textsOf(body);
        expect(valid).toHaveLength(transactions.length);
        const messages = valid.map(({ index, transaction }) => message(transaction, index));
        const sent = queueMessageData(
          messages,
          texts.map((text) => (text === undefined ? undefined : Buffer.from(text, "utf8"))),
        );
        expect(sent.map(workerReads)).toEqual(messages.map((queued) => workerReads(JSON.stringify(queued))));
        // Every transaction is sent as its own text but for those with an unknown field or a number
        // written with an exponent or as -0….
        valid.forEach(({ index }, n) => {
          const given = transactions[index] ?? {};
          const coarse = numbersIn(given).some((number) => /e|^-0/.test(JSON.stringify(number)));
          expect([index, texts[n] === undefined]).toEqual([index, "unknown" in given || coarse]);
        });
      }),
      { seed: 5, numRuns: 300 },
    );
  });
});

/** The parts of a Valibot schema read here. */
interface SchemaNode {
  kind: string;
  type: string;
  pipe?: SchemaNode[];
  entries?: Record<string, SchemaNode>;
  wrapped?: SchemaNode;
  item?: SchemaNode;
  options?: unknown[];
  default?: unknown;
}

/** Defaults and transformations anywhere in a schema: what would let an output hold what its input lacks. */
function additions(node: SchemaNode, path: string): string[] {
  const own = [
    ...(node.kind === "transformation" ? [`${path}: ${node.type}`] : []),
    ...(node.default !== undefined ? [`${path}: default`] : []),
  ];
  const children = [
    ...(node.pipe ?? []).slice(1).map((child) => additions(child, `${path}|${child.type}`)),
    ...Object.entries(node.entries ?? {}).map(([key, child]) => additions(child, `${path}.${key}`)),
    ...(node.wrapped ? [additions(node.wrapped, path)] : []),
    ...(node.item ? [additions(node.item, `${path}[]`)] : []),
    ...(node.options ?? [])
      .filter((option): option is SchemaNode => typeof option === "object" && option !== null && "kind" in option)
      .map((option) => additions(option, `${path}|${option.type}`)),
  ];
  return [...own, ...children.flat()];
}

describe("the transaction schema", () => {
  it("adds nothing its input lacks, so a text with as many members as the output has only its members", () => {
    expect(additions(TransactionSchema as unknown as SchemaNode, "transaction")).toEqual([]);
    const withDefault = v.object({ a: v.optional(v.number(), 1), b: v.pipe(v.string(), v.transform(Number)) });
    expect(additions(withDefault as unknown as SchemaNode, "t")).toEqual(["t.a: default", "t.b|transform: transform"]);
  });
});
