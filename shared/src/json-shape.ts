import type { FieldError } from "./field-errors.ts";
import {
  MAX_MEMBERS_PER_OBJECT,
  MAX_NESTING_DEPTH,
  MAX_VALUES_PER_BODY,
  MAX_VALUES_PER_TRANSACTION,
} from "./limits.ts";

/**
 * A parsed usage body's shape against the bounds on work (limits.ts), in one walk that also counts what it
 * holds: nesting (`MAX_NESTING_DEPTH`), members per object, values (object members and array elements)
 * per transaction (each element of `transactions`, or the body when it is one transaction) and per body.
 * The count is what the request is charged for beside its transactions. Paths are built only for a body
 * that breaks a bound.
 */
export type BodyShape =
  | {
      ok: true;
      values: number;
      /**
       * In a bulk, the transactions past a bound of their own (members, values), by index: each is
       * refused alone, as a field error of it would be (207), and its values past the bound are not read.
       */
      invalid?: Map<number, FieldError>;
    }
  | { ok: false; kind: "depth" | "members" | "values"; field: string; message: string };

type Path = Array<string | number>;
interface Walk {
  broken?: { kind: "depth" | "members" | "values"; path: Path; message: string };
}

/** Values under `value` (its members or elements and theirs), or -1 once a bound is broken (`walk.broken`). */
function valuesIn(value: unknown, depth: number, walk: Walk): number {
  if (value === null || typeof value !== "object") return 0;
  if (depth >= MAX_NESTING_DEPTH) {
    walk.broken = { kind: "depth", path: [], message: `is nested more than ${MAX_NESTING_DEPTH} levels deep` };
    return -1;
  }
  let count = 0;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const child: unknown = value[index];
      count++;
      // Only objects and arrays are walked into: a call per scalar would cost the hot path for nothing.
      if (child === null || typeof child !== "object") continue;
      const inner = valuesIn(child, depth + 1, walk);
      if (inner < 0) {
        walk.broken?.path.unshift(index);
        return -1;
      }
      count += inner;
    }
  } else {
    let members = 0;
    for (const key in value) {
      if (++members > MAX_MEMBERS_PER_OBJECT) {
        walk.broken = { kind: "members", path: [], message: `has more than ${MAX_MEMBERS_PER_OBJECT} members` };
        return -1;
      }
      const child = (value as Record<string, unknown>)[key];
      count++;
      if (child === null || typeof child !== "object") continue;
      const inner = valuesIn(child, depth + 1, walk);
      if (inner < 0) {
        walk.broken?.path.unshift(key);
        return -1;
      }
      count += inner;
    }
  }
  return count;
}

function transactionValues(transaction: unknown, depth: number, walk: Walk): number {
  const count = valuesIn(transaction, depth, walk);
  if (count > MAX_VALUES_PER_TRANSACTION) {
    walk.broken = {
      kind: "values",
      path: [],
      message: `holds more than ${MAX_VALUES_PER_TRANSACTION} values (object members and array elements)`,
    };
    return -1;
  }
  return count;
}

export function bodyShape(body: unknown): BodyShape {
  const walk: Walk = {};
  let values = 0;
  let invalid: Map<number, FieldError> | undefined;
  const list = (body as { transactions?: unknown } | null)?.transactions;
  if (Array.isArray(list) && body !== null && typeof body === "object" && !Array.isArray(body)) {
    // A bulk: the envelope's own members, then each transaction on its own.
    for (const key in body) {
      values++;
      if (values > MAX_MEMBERS_PER_OBJECT) {
        walk.broken = { kind: "members", path: [], message: `has more than ${MAX_MEMBERS_PER_OBJECT} members` };
        break;
      }
      if (key === "transactions") continue;
      const inner = valuesIn((body as Record<string, unknown>)[key], 1, walk);
      if (inner < 0) {
        walk.broken?.path.unshift(key);
        break;
      }
      values += inner;
    }
    for (let index = 0; walk.broken === undefined && index < list.length; index++) {
      const inner = transactionValues(list[index], 2, walk);
      const broken = walk.broken as Walk["broken"];
      if (inner < 0 && broken && broken.kind !== "depth") {
        // This transaction alone is refused; the others go on.
        const field = ["transactions", index, ...broken.path].join(".");
        invalid ??= new Map();
        invalid.set(index, { field, code: "too_large", message: `${field} ${broken.message}` });
        walk.broken = undefined;
        values++;
      } else if (inner < 0) broken?.path.unshift("transactions", index);
      else values += 1 + inner;
      if (walk.broken === undefined && values > MAX_VALUES_PER_BODY) {
        walk.broken = {
          kind: "values",
          path: [],
          message: `holds more than ${MAX_VALUES_PER_BODY} values (object members and array elements)`,
        };
      }
    }
  } else {
    values = transactionValues(body, 0, walk);
  }
  const broken = walk.broken as Walk["broken"];
  if (!broken) return invalid ? { ok: true, values, invalid } : { ok: true, values };
  const field = broken.path.join(".") || "body";
  return { ok: false, kind: broken.kind, field, message: `${field} ${broken.message}` };
}
