import { describe, expect, it } from "vitest";
import { knownKeyHashes } from "./known-key-hashes.ts";

// SHA-256 test vectors of FIPS 180-2 ("abc") and of the empty text, in lowercase hex.
const ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
const EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

describe("knownKeyHashes", () => {
  it("hashes a key it does not know, and keeps nothing until told the key is valid", () => {
    const hashes = knownKeyHashes();
    expect(hashes.hash("abc")).toBe(ABC);
    expect(hashes.hash("")).toBe(EMPTY);
    expect(hashes.size).toBe(0);
  });

  it("answers a remembered key with the hash it was given", () => {
    const hashes = knownKeyHashes();
    hashes.remember("abc", ABC);
    // A hash that is not the key's shows that the answer came from memory, not from hashing again.
    hashes.remember("usk_known", "remembered");
    expect(hashes.hash("abc")).toBe(ABC);
    expect(hashes.hash("usk_known")).toBe("remembered");
    expect(hashes.size).toBe(2);
  });

  it("lets the oldest key go past its bound", () => {
    const hashes = knownKeyHashes(2);
    hashes.remember("first", "1");
    hashes.remember("second", "2");
    hashes.remember("second", "2");
    hashes.remember("third", "3");
    expect(hashes.size).toBe(2);
    expect(hashes.hash("first")).toBe("a7937b64b8caa58f03721bb6bacf5c78cb235febe0e70b1b84cd99541461a08e");
    expect(hashes.hash("second")).toBe("2");
    expect(hashes.hash("third")).toBe("3");
  });

  it("knows a key remembered until it is forgotten", () => {
    const hashes = knownKeyHashes(2);
    expect(hashes.known("usk_a")).toBe(false);
    hashes.remember("usk_a", "h");
    expect(hashes.known("usk_a")).toBe(true);
    hashes.forget("usk_a");
    expect(hashes.known("usk_a")).toBe(false);
    expect(hashes.size).toBe(0);
  });
});
