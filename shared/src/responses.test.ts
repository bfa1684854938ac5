import { describe, expect, it } from "vitest";
import { validationFailed } from "./error-replies.ts";
import { firstMessageId, ingestionResponse } from "./responses.ts";

describe("ingestionResponse", () => {
  it("is 202 when everything was queued", () => {
    const response = ingestionResponse([
      { kind: "queued", messageId: "a" },
      { kind: "queued", messageId: "b" },
    ]);
    expect(response).toEqual({
      status: 202,
      body: {
        status: "queued",
        events_queued: 2,
        message: "2 transaction(s) queued for processing",
        results: [
          { transaction_index: 0, message_id: "a" },
          { transaction_index: 1, message_id: "b" },
        ],
      },
    });
  });

  it("is 207 when some failed, listing every transaction in order", () => {
    const response = ingestionResponse([
      { kind: "invalid", error: "validation failed: x" },
      { kind: "queued", messageId: "b" },
      { kind: "not_queued", error: "queueing failed" },
    ]);
    expect(response).toEqual({
      status: 207,
      body: {
        status: "partial_success",
        events_queued: 1,
        events_failed: 2,
        message: "1 transaction(s) queued, 2 failed",
        results: [
          { transaction_index: 0, message_id: null, error: "validation failed: x" },
          { transaction_index: 1, message_id: "b" },
          { transaction_index: 2, message_id: null, error: "queueing failed" },
        ],
      },
    });
    expect(firstMessageId(response.body.results)).toBe("b");
  });

  it("is 207 with nothing queued when invalid ones and failed ones are mixed", () => {
    const response = ingestionResponse([
      { kind: "invalid", error: "v" },
      { kind: "not_queued", error: "q" },
    ]);
    expect(response.status).toBe(207);
    expect(response.body).toMatchObject({ events_queued: 0, events_failed: 2 });
    expect(firstMessageId(response.body.results)).toBeUndefined();
  });

  it("is 500 internal_error when every valid transaction failed to queue", () => {
    const response = ingestionResponse([{ kind: "not_queued", error: "q" }]);
    expect(response).toEqual({
      status: 500,
      body: {
        error: { code: "internal_error", message: expect.any(String) },
        events_failed: 1,
        results: [{ transaction_index: 0, message_id: null, error: "q" }],
      },
    });
  });
});

describe("validationFailed", () => {
  it("carries the details and counts them in the message", () => {
    const details = [{ field: "model", code: "required" as const, message: "model is required" }];
    expect(validationFailed(details)).toEqual({
      status: 400,
      body: {
        error: { code: "validation_error", message: "The request failed validation with 1 field error.", details },
      },
    });
  });
});
