import protobuf from "protobufjs/minimal.js";

/**
 * Firestore's `Commit` request in protobuf's wire format, for the writes the worker makes
 * (google/firestore/v1/firestore.proto, write.proto, document.proto, common.proto):
 *
 *   CommitRequest  { string database = 1; repeated Write writes = 2; }
 *   Write          { Document update = 1; DocumentMask update_mask = 3; Precondition current_document = 4;
 *                    repeated FieldTransform update_transforms = 7; }
 *   Document       { string name = 1; map<string, Value> fields = 2; }
 *   DocumentMask   { repeated string field_paths = 1; }
 *   Precondition   { bool exists = 1; }
 *   FieldTransform { string field_path = 1; Value increment = 3; }
 *   Value          { oneof: bool boolean_value = 1; int64 integer_value = 2; double double_value = 3;
 *                    MapValue map_value = 6; ArrayValue array_value = 9; NullValue null_value = 11;
 *                    string string_value = 17; }
 *   MapValue       { map<string, Value> fields = 1; }    ArrayValue { repeated Value values = 1; }
 *
 * The Firestore client builds each write as objects, validates and serialises them, and turns them into
 * protobuf through its generic layers: about 0.8 ms of CPU per record, more than the worker's own work
 * (docs/decisions/0002-own-firestore-commit.md). Values are written as the client writes them: a safe integer as
 * `integer_value`, any other number (and -0) as `double_value`. `commit-wire.test.ts` holds this to the
 * client's own types and to what the client stores.
 */

/** A counter to add to, by its field path's segments, and how much. */
export type Increment = readonly [path: readonly string[], amount: number];

/** One document's write within a commit; `path` is relative to the database's documents. */
export type DocumentWrite =
  /** The whole document, which must not exist yet (the commit fails ALREADY_EXISTS otherwise). */
  | { kind: "create"; path: string; fields: object }
  /** Sets each of `fields`' leaves and adds the increments; creates the document when it is missing. */
  | { kind: "merge"; path: string; fields: object; increments: readonly Increment[] }
  /** Adds the increments to a document that must exist (the commit fails NOT_FOUND otherwise). */
  | { kind: "increment"; path: string; increments: readonly Increment[] };

type Writer = protobuf.Writer;

const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;
const tag = (field: number, wireType: number) => (field << 3) | wireType;

const isPlainObject = (value: object): value is Record<string, unknown> => {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

function writeValue(writer: Writer, value: unknown, field: string): void {
  switch (typeof value) {
    case "string":
      writer.uint32(tag(17, LENGTH_DELIMITED)).string(value);
      return;
    case "boolean":
      writer.uint32(tag(1, VARINT)).bool(value);
      return;
    case "number":
      if (Number.isSafeInteger(value) && !Object.is(value, -0)) writer.uint32(tag(2, VARINT)).int64(value);
      else writer.uint32(tag(3, FIXED64)).double(value);
      return;
    case "object":
      if (value === null) {
        writer.uint32(tag(11, VARINT)).int32(0);
        return;
      }
      if (Array.isArray(value)) {
        writer.uint32(tag(9, LENGTH_DELIMITED)).fork();
        for (const item of value) {
          writer.uint32(tag(1, LENGTH_DELIMITED)).fork();
          writeValue(writer, item, field);
          writer.ldelim();
        }
        writer.ldelim();
        return;
      }
      if (isPlainObject(value)) {
        writer.uint32(tag(6, LENGTH_DELIMITED)).fork();
        writeFields(writer, 1, value, field);
        writer.ldelim();
        return;
      }
  }
  // As the Firestore client refuses them: a bug of ours, never data a client sent (that is JSON).
  throw new TypeError(`cannot store ${value === undefined ? "undefined" : typeof value} in field "${field}"`);
}

/** A `map<string, Value>` field: one entry message (key = 1, value = 2) per key. */
function writeFields(writer: Writer, field: number, fields: object, parent?: string): void {
  for (const key in fields) {
    writer.uint32(tag(field, LENGTH_DELIMITED)).fork();
    writer.uint32(tag(1, LENGTH_DELIMITED)).string(key);
    writer.uint32(tag(2, LENGTH_DELIMITED)).fork();
    writeValue(writer, (fields as Record<string, unknown>)[key], parent === undefined ? key : `${parent}.${key}`);
    writer.ldelim();
    writer.ldelim();
  }
}

const SIMPLE_SEGMENT = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

/** A field path as the API reads it: segments joined by dots, any other than a plain name in backquotes. */
export const formatFieldPath = (segments: readonly string[]): string =>
  segments
    .map((segment) =>
      SIMPLE_SEGMENT.test(segment) ? segment : `\`${segment.replace(/\\/g, "\\\\").replace(/`/g, "\\`")}\``,
    )
    .join(".");

/** The paths a merge of `fields` sets: every leaf, an empty map being a leaf of its own. */
function leafPaths(fields: object, parent: readonly string[], into: string[]): string[] {
  for (const key in fields) {
    const path = [...parent, key];
    const value = (fields as Record<string, unknown>)[key];
    if (typeof value === "object" && value !== null && isPlainObject(value)) {
      if (Object.keys(value).length === 0) into.push(formatFieldPath(path));
      else leafPaths(value, path, into);
    } else into.push(formatFieldPath(path));
  }
  return into;
}

function writeWrite(writer: Writer, documents: string, write: DocumentWrite): void {
  writer.uint32(tag(2, LENGTH_DELIMITED)).fork();
  // update: the document's name, and its fields for a create or a merge.
  writer.uint32(tag(1, LENGTH_DELIMITED)).fork();
  writer.uint32(tag(1, LENGTH_DELIMITED)).string(`${documents}/${write.path}`);
  if (write.kind !== "increment") writeFields(writer, 2, write.fields);
  writer.ldelim();
  // update_mask: a create has none (the whole document); an increment's is empty (no field but the counters).
  if (write.kind !== "create") {
    writer.uint32(tag(3, LENGTH_DELIMITED)).fork();
    if (write.kind === "merge") {
      for (const path of leafPaths(write.fields, [], [])) writer.uint32(tag(1, LENGTH_DELIMITED)).string(path);
    }
    writer.ldelim();
  }
  // current_document: must not exist for a create, must exist for an increment.
  if (write.kind !== "merge") {
    writer.uint32(tag(4, LENGTH_DELIMITED)).fork();
    writer.uint32(tag(1, VARINT)).bool(write.kind === "increment");
    writer.ldelim();
  }
  if (write.kind !== "create") {
    for (const [path, amount] of write.increments) {
      writer.uint32(tag(7, LENGTH_DELIMITED)).fork();
      writer.uint32(tag(1, LENGTH_DELIMITED)).string(formatFieldPath(path));
      writer.uint32(tag(3, LENGTH_DELIMITED)).fork();
      writeValue(writer, amount, path.join("."));
      writer.ldelim();
      writer.ldelim();
    }
  }
  writer.ldelim();
}

/**
 * The request committing `writes` atomically to `database` (`projects/{project}/databases/{id}`), with
 * `headerBytes` left free before it for the gRPC frame header.
 */
export function encodeCommitRequest(database: string, writes: readonly DocumentWrite[], headerBytes = 0): Buffer {
  const writer = protobuf.Writer.create();
  writer.uint32(tag(1, LENGTH_DELIMITED)).string(database);
  const documents = `${database}/documents`;
  for (const write of writes) writeWrite(writer, documents, write);
  const body = writer.finish();
  const frame = Buffer.allocUnsafe(headerBytes + body.length);
  frame.set(body, headerBytes);
  return frame;
}
