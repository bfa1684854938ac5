/** A lone surrogate, high or low: text JSON allows (`"\ud800"`) that is not valid Unicode. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * C0 and C1 control characters and the bidirectional formatting characters (decisions.md): in an
 * identifier they hide or reorder what a report, a log line or a CSV cell shows.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters refused.
const CONTROL_OR_BIDI = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

/** True when the text holds a control or bidirectional formatting character. */
export const hasControlOrBidi = (text: string): boolean => CONTROL_OR_BIDI.test(text);

/** True when the string is valid Unicode: storable as UTF-8 as it is. */
export const isWellFormed = (text: string): boolean => !LONE_SURROGATE.test(text);

/**
 * The length of the text in UTF-8, as TextEncoder would encode it (a lone surrogate as U+FFFD, 3 bytes),
 * without encoding it.
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** The longest start of `text` that is at most `maxBytes` in UTF-8, never cutting a surrogate pair. */
export function utf8Prefix(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes) return text;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const pair = code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + size > maxBytes) return text.slice(0, i);
    bytes += size;
    if (pair) i++;
  }
  return text;
}
