/**
 * Where values lie in a JSON text already known to be valid (it was parsed), read as UTF-8 bytes: every
 * byte that matters here (quotes, brackets, colons, digits) is ASCII, and no byte of a multi-byte UTF-8
 * sequence is, so a byte loop cannot be misled by the text it skips.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const LOWER_A = 0x61;
const LOWER_Z = 0x7a;
const LOWER_E = 0x65;
const UPPER_E = 0x45;

/**
 * Past this many characters a number may be too large for a double (JSON.parse reads it as Infinity):
 * 309 digits, and a sign, a point or a fraction's digits besides.
 */
const LONGEST_PLAIN_NUMBER = 300;

/** One value of the text: where it starts and ends, and what it holds at every depth. */
export interface JsonSpan {
  start: number;
  end: number;
  /** Object members (key and value pairs) at every depth, duplicate keys each counted. */
  members: number;
  /**
   * Whether every number is one that reads back as the number JSON.stringify writes for it: false for
   * `-0…` (read as -0, written as 0), exponents and very long numbers (either may read as Infinity,
   * written as null). The test is coarse, erring towards false.
   */
  plainNumbers: boolean;
}

const isSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

function skipSpace(text: Uint8Array, from: number): number {
  let at = from;
  while (isSpace(text[at])) at++;
  return at;
}

/** Just past the string whose opening quote is at `from`. */
function stringEnd(text: Uint8Array, from: number): number {
  let at = from + 1;
  while (at < text.length) {
    const byte = text[at];
    if (byte === QUOTE) return at + 1;
    at += byte === BACKSLASH ? 2 : 1;
  }
  throw new SyntaxError("unterminated string");
}

/** Scans the value starting at `span.start`, filling in the rest of the span. */
function scanValue(text: Uint8Array, span: JsonSpan): void {
  let depth = 0;
  let at = span.start;
  do {
    const byte = text[at] as number;
    if (byte === QUOTE) {
      at = stringEnd(text, at);
      continue;
    }
    if (byte === MINUS || (byte >= DIGIT_0 && byte <= DIGIT_9)) {
      const start = at;
      let plain = !(byte === MINUS && text[at + 1] === DIGIT_0);
      for (at++; at < text.length; at++) {
        const next = text[at] as number;
        if (next === LOWER_E || next === UPPER_E) plain = false;
        else if (!((next >= DIGIT_0 && next <= DIGIT_9) || next === DOT || next === MINUS || next === PLUS)) break;
      }
      if (!plain || at - start > LONGEST_PLAIN_NUMBER) span.plainNumbers = false;
      continue;
    }
    if (byte >= LOWER_A && byte <= LOWER_Z) {
      while (at < text.length && (text[at] as number) >= LOWER_A && (text[at] as number) <= LOWER_Z) at++;
      continue;
    }
    if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++;
    else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth--;
    else if (byte === COLON) span.members++;
    at++;
  } while (depth > 0 && at < text.length);
  if (depth !== 0) throw new SyntaxError("unbalanced value");
  span.end = at;
}

function spanAt(text: Uint8Array, start: number): JsonSpan {
  const span: JsonSpan = { start, end: start, members: 0, plainNumbers: true };
  scanValue(text, span);
  return span;
}

/** The elements of the array whose `[` is at `from`, and where the array ends. */
function arrayElements(text: Uint8Array, from: number): { elements: JsonSpan[]; end: number } {
  const elements: JsonSpan[] = [];
  let at = skipSpace(text, from + 1);
  if (text[at] === CLOSE_ARRAY) return { elements, end: at + 1 };
  for (;;) {
    const element = spanAt(text, at);
    elements.push(element);
    at = skipSpace(text, element.end);
    if (text[at] === CLOSE_ARRAY) return { elements, end: at + 1 };
    if (text[at] !== COMMA) throw new SyntaxError("expected , or ]");
    at = skipSpace(text, at + 1);
  }
}

/** The decoded key of the string at [start, end): most keys hold no escape and are read as they are. */
function keyAt(text: Buffer, start: number, end: number): string {
  return text.subarray(start, end).includes(BACKSLASH)
    ? (JSON.parse(text.toString("utf8", start, end)) as string)
    : text.toString("utf8", start + 1, end - 1);
}

/** The whole text as one value, surrounding whitespace left out. */
export function wholeSpan(text: Uint8Array): JsonSpan {
  return spanAt(text, skipSpace(text, 0));
}

/**
 * The elements of the array a top-level object holds under `key`, as JSON.parse reads it: when the key
 * is repeated, the last one. Undefined when the text is no object or holds no such array.
 */
export function memberArrayElements(text: Buffer, key: string): JsonSpan[] | undefined {
  let at = skipSpace(text, 0);
  if (text[at] !== OPEN_OBJECT) return undefined;
  let found: JsonSpan[] | undefined;
  at = skipSpace(text, at + 1);
  while (text[at] === QUOTE) {
    const keyEnd = stringEnd(text, at);
    const isKey = keyAt(text, at, keyEnd) === key;
    at = skipSpace(text, keyEnd);
    if (text[at] !== COLON) throw new SyntaxError("expected :");
    at = skipSpace(text, at + 1);
    if (isKey && text[at] === OPEN_ARRAY) {
      const array = arrayElements(text, at);
      found = array.elements;
      at = array.end;
    } else {
      if (isKey) found = undefined;
      at = spanAt(text, at).end;
    }
    at = skipSpace(text, at);
    if (text[at] !== COMMA) break;
    at = skipSpace(text, at + 1);
  }
  return found;
}
