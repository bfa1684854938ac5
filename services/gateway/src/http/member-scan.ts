import { MAX_VALUES_PER_BODY } from "@usage-ingestion/shared";

/** Below this many bytes a body cannot hold MAX_VALUES_PER_BODY members (each takes at least 5): no scan. */
const SCAN_ABOVE_BYTES = 5 * MAX_VALUES_PER_BODY;
const MEMBER_END = Buffer.from('":');
const BACKSLASH = 0x5c;

/**
 * Before JSON.parse, for a large body only: whether its text holds more members than MAX_VALUES_PER_BODY,
 * counted as the `":` that end member names (inside a string a quote is always escaped, so these are
 * names; a name ending in an escaped backslash is missed, which only undercounts). Building an object of
 * 300,000 members costs far more than this scan, which runs at the speed of Buffer.indexOf; bodies it
 * passes are still walked exactly after parsing (bodyShape).
 */
export function tooManyMembersToParse(text: Buffer): boolean {
  if (text.length <= SCAN_ABOVE_BYTES) return false;
  let members = 0;
  for (let at = text.indexOf(MEMBER_END); at >= 0; at = text.indexOf(MEMBER_END, at + 2)) {
    if (at > 0 && text[at - 1] === BACKSLASH) continue;
    if (++members > MAX_VALUES_PER_BODY) return true;
  }
  return false;
}
