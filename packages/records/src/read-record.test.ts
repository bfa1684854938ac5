import { describe, expect, it } from "vitest";
import { MAX_MESSAGE_ID_BYTES, messageIdProblem } from "./read-record.ts";

describe("messageIdProblem", () => {
  it("lets through whatever may be a record's id", () => {
    for (const id of ["17290431520471234", "m-8f0c", "été", "a b", "x".repeat(MAX_MESSAGE_ID_BYTES)]) {
      expect(messageIdProblem(id), id).toBeNull();
    }
  });

  it("refuses what could never be one document's id, by its code", () => {
    expect(messageIdProblem("")).toMatchObject({ field: "message_id", code: "required" });
    expect(messageIdProblem("é".repeat(129))).toMatchObject({ code: "too_large" });
    for (const id of ["a/b", ".", "..", "__name__", "\ud800", "a\u0000b", "a\u0085b", "\n"]) {
      expect(messageIdProblem(id), JSON.stringify(id)).toMatchObject({ field: "message_id", code: "invalid_format" });
    }
  });
});
