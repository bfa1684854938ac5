import type { IncomingHttpHeaders } from "node:http";

/**
 * The encodings a request body may come in (decisions.md, "Compressed bodies"): gzip, or none. Whatever
 * else the body parser could inflate (deflate, br, zstd) is refused before a byte is read, so what we take
 * stays what we document and test.
 */
const ACCEPTED = new Set(["gzip", "identity"]);

/** The request's Content-Encoding when it is not one we take; undefined when it is (or is absent). */
export function unacceptedEncoding(headers: IncomingHttpHeaders): string | undefined {
  const given = headers["content-encoding"];
  if (given === undefined || given === "") return undefined;
  return ACCEPTED.has(given.trim().toLowerCase()) ? undefined : given;
}

/**
 * Whether a body-reading error is the body failing to decompress: zlib's errors reach us as a 400 without
 * the parser's own `type` (which its size, abort and encoding errors carry).
 */
export const isUndecodable = (error: { type?: string; status?: number }): boolean =>
  error.type === undefined && error.status === 400;
