import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import { type ErrorReply, headersTooLarge, malformedRequest, requestTimeout } from "@usage-ingestion/shared";
import type { Logger } from "@usage-ingestion/shared/server";

/** Node's own limits: 16 KiB of headers, a whole request within `server.requestTimeout`. */
function replyFor(error: NodeJS.ErrnoException, server: Server, maxHeaderBytes: number): ErrorReply {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return headersTooLarge(maxHeaderBytes);
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return requestTimeout(Math.round(server.requestTimeout / 1000));
    default:
      return malformedRequest();
  }
}

/**
 * Requests Node's HTTP parser refuses never reach the app: answer them here in the same envelope, with
 * an `X-Request-Id`, wherever the socket still lets us write a response.
 */
export function answerParserErrors(server: Server, logger: Logger, maxHeaderBytes = 16 * 1024): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = randomUUID();
    const reply = replyFor(error, server, maxHeaderBytes);
    const body = JSON.stringify(reply.body);
    logger.log("WARNING", `refused by the HTTP parser: ${reply.status}`, {
      request_id: requestId,
      status: reply.status,
      error: error.code,
    });
    socket.end(
      `HTTP/1.1 ${reply.status} ${STATUS_TEXT[reply.status] ?? "Error"}\r\n` +
        "Content-Type: application/json; charset=utf-8\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        "Connection: close\r\n\r\n" +
        body,
    );
  });
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
};
