import { readFileSync } from "node:fs";
import http2 from "node:http2";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import protobuf from "protobufjs";

/**
 * Meters what Google Cloud bills, on the emulators: an HTTP/2 proxy in front of an emulator that passes
 * every gRPC call through unchanged and decodes, with the client libraries' own descriptors of the APIs,
 * the calls that are billed. Point a client at it (FIRESTORE_EMULATOR_HOST, PUBSUB_EMULATOR_HOST) before
 * the client is made, and everything it sends is counted as the service would count it: the Firestore
 * client's reads and writes and the worker's own Commit calls alike, the gateway's and the records feed's
 * own Publish calls alike.
 */

const require = createRequire(import.meta.url);
const descriptors = (pkg: string, file: string) =>
  protobuf.Root.fromJSON(JSON.parse(readFileSync(join(dirname(require.resolve(pkg)), "..", "protos", file), "utf8")));

/** What one call does: each message of the request, each of the answer, and its gRPC status at the end. */
interface CallObserver {
  request?: (message: Buffer) => void;
  response?: (message: Buffer) => void;
  end?: (status: number) => void;
}

/** gRPC's length-prefixed messages out of a byte stream, as they complete. */
function messageReader(encoding: string | undefined, each: (message: Buffer) => void) {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 5) {
      const length = pending.readUInt32BE(1);
      if (pending.length < 5 + length) return;
      const body = pending.subarray(5, 5 + length);
      each(pending[0] === 1 && encoding === "gzip" ? gunzipSync(body) : body);
      pending = pending.subarray(5 + length);
    }
  };
}

const statusOf = (headers: http2.IncomingHttpHeaders | undefined) => Number(headers?.["grpc-status"] ?? Number.NaN);

/**
 * An h2c proxy to `target` (`host:port`, plaintext as the emulators speak): each stream is passed through
 * as it comes, headers, messages and trailers, and shown to `observe` by its method path.
 */
async function grpcProxy(target: string, observe: (path: string) => CallObserver | undefined) {
  let upstream: http2.ClientHttp2Session | undefined;
  const session = () => {
    if (!upstream || upstream.closed || upstream.destroyed) {
      upstream = http2.connect(`http://${target}`);
      upstream.on("error", () => {});
    }
    return upstream;
  };
  const server = http2.createServer();
  const open = new Set<http2.ServerHttp2Session>();
  server.on("session", (incoming) => {
    open.add(incoming);
    incoming.on("error", () => {});
    incoming.on("close", () => open.delete(incoming));
  });
  server.on("stream", (stream, headers) => {
    const path = String(headers[":path"]);
    const observer = observe(path);
    const out = session().request(headers, { endStream: false });
    let trailers: http2.OutgoingHttpHeaders = {};
    // The call is ended for the observer before the client can see its end: a step measured is whole.
    let ended = false;
    const end = (status: number) => {
      if (ended) return;
      ended = true;
      observer?.end?.(status);
    };
    const readRequest = observer?.request && messageReader(headers["grpc-encoding"] as string, observer.request);
    let readResponse: ((chunk: Buffer) => void) | undefined;
    stream.on("data", (chunk: Buffer) => {
      readRequest?.(chunk);
      out.write(chunk);
    });
    stream.on("end", () => out.end());
    stream.on("error", () => {});
    stream.on("close", () => {
      if (!out.closed) out.close(http2.constants.NGHTTP2_CANCEL);
    });
    out.on("error", () => {});
    out.on("response", (answer, flags) => {
      if (flags & http2.constants.NGHTTP2_FLAG_END_STREAM) {
        // Trailers only: the status is in these headers and nothing follows.
        end(statusOf(answer));
        if (!stream.closed) stream.respond(answer, { endStream: true });
        return;
      }
      readResponse = observer?.response && messageReader(answer["grpc-encoding"] as string, observer.response);
      if (!stream.closed) stream.respond(answer, { waitForTrailers: true });
    });
    out.on("data", (chunk: Buffer) => {
      readResponse?.(chunk);
      if (!stream.closed) stream.write(chunk);
    });
    out.on("trailers", (received) => {
      trailers = { ...received };
      end(statusOf(received));
    });
    stream.on("wantTrailers", () => stream.sendTrailers(trailers));
    out.on("end", () => {
      if (!stream.closed && stream.headersSent) stream.end();
    });
    out.on("close", () => {
      end(Number.NaN);
      if (!stream.closed && !stream.headersSent) stream.close(out.rstCode ?? http2.constants.NGHTTP2_CANCEL);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        upstream?.close();
        server.close(() => resolve());
        // Clients keep their connections open: end them so the server can close.
        for (const each of open) each.destroy();
      }),
  };
}

/** Firestore's billed operations, as its pricing page counts them. */
export interface FirestoreCounts {
  /** Documents read: each document a query or a get returns. */
  documentsRead: number;
  /** Gets of documents that do not exist (counted here as reads too, in `reads`). */
  missingRead: number;
  /** Queries run, and those that returned nothing (each still billed one read). */
  queries: number;
  emptyQueries: number;
  /** Billed reads: documents read, missing gets, and one for each query that returned nothing. */
  reads: number;
  /** Documents written (created, set, updated or incremented) and deleted by commits that succeeded. */
  writes: number;
  deletes: number;
  /** Commits Firestore refused (a create of a document that exists): nothing written, nothing billed. */
  refusedCommits: number;
  /** The documents written and read, by path (a document read twice is here twice). */
  written: string[];
  read: string[];
  /** Methods that were called but are not metered here (none of the code metered uses them). */
  unmetered: string[];
}

const zeroFirestore = (): FirestoreCounts => ({
  documentsRead: 0,
  missingRead: 0,
  queries: 0,
  emptyQueries: 0,
  reads: 0,
  writes: 0,
  deletes: 0,
  refusedCommits: 0,
  written: [],
  read: [],
  unmetered: [],
});

const FIRESTORE = "/google.firestore.v1.Firestore/";
/** `organizations/o/transactions/m` out of a document's full name. */
const pathOf = (name: string) => name.split("/documents/")[1] ?? name;

/** A proxy in front of the Firestore emulator that counts Firestore's billed reads, writes and deletes. */
export async function firestoreMeter(target: string) {
  const root = descriptors("@google-cloud/firestore", "v1.json");
  const type = (name: string) => root.lookupType(`google.firestore.v1.${name}`);
  const decode = (name: string, message: Buffer) =>
    type(name).toObject(type(name).decode(message), { defaults: false, oneofs: true, longs: String }) as Record<
      string,
      // biome-ignore lint/suspicious/noExplicitAny: decoded protobuf messages are read field by field
      any
    >;
  let counts = zeroFirestore();
  const proxy = await grpcProxy(target, (path) => {
    if (!path.startsWith(FIRESTORE)) return undefined;
    const method = path.slice(FIRESTORE.length);
    switch (method) {
      case "Commit": {
        const writes: Array<{ path: string; deleted: boolean }> = [];
        return {
          request: (message) => {
            for (const write of decode("CommitRequest", message).writes ?? []) {
              const name: string = write.update?.name ?? write.delete ?? write.transform?.document ?? "";
              writes.push({ path: pathOf(name), deleted: write.delete !== undefined });
            }
          },
          end: (status) => {
            if (status !== 0) {
              counts.refusedCommits += 1;
              return;
            }
            for (const write of writes) {
              if (write.deleted) counts.deletes += 1;
              else counts.writes += 1;
              counts.written.push(write.path);
            }
          },
        };
      }
      case "BatchGetDocuments":
        return {
          response: (message) => {
            const answer = decode("BatchGetDocumentsResponse", message);
            if (answer.found) {
              counts.documentsRead += 1;
              counts.read.push(pathOf(answer.found.name));
            }
            if (answer.missing) counts.missingRead += 1;
          },
        };
      case "RunQuery": {
        let documents = 0;
        return {
          response: (message) => {
            const { document } = decode("RunQueryResponse", message);
            if (!document) return;
            documents += 1;
            counts.read.push(pathOf(document.name));
          },
          end: () => {
            counts.queries += 1;
            counts.documentsRead += documents;
            if (documents === 0) counts.emptyQueries += 1;
          },
        };
      }
      case "BeginTransaction":
      case "Rollback":
        return undefined;
      default:
        // Anything else (aggregations, listeners, BatchWrite) is not used by the code metered here: say so.
        counts.unmetered.push(method);
        return undefined;
    }
  });
  const reads = (c: FirestoreCounts) => c.documentsRead + c.missingRead + c.emptyQueries;
  return {
    host: proxy.host,
    close: proxy.close,
    /** What Firestore would bill for everything `step` sends through the meter. */
    async measure<T>(step: () => Promise<T>): Promise<{ result: T; counts: FirestoreCounts }> {
      counts = zeroFirestore();
      const result = await step();
      const taken = counts;
      counts = zeroFirestore();
      return { result, counts: { ...taken, reads: reads(taken) } };
    },
  };
}

/** One message of a Publish request: the bytes Pub/Sub's pricing counts of it, as sent. */
export interface PublishedMessage {
  data: number;
  /** Each attribute's key and value. */
  attributes: number;
  orderingKey: number;
  /** The id Pub/Sub gave it (the emulator's ids are shorter than the service's). */
  messageId: string;
}

export interface PublishRequest {
  topic: string;
  messages: PublishedMessage[];
}

const PUBLISH = "/google.pubsub.v1.Publisher/Publish";

/** A proxy in front of the Pub/Sub emulator that keeps what each Publish request carried. */
export async function pubsubMeter(target: string) {
  const root = descriptors("@google-cloud/pubsub", "protos.json");
  const PublishRequestType = root.lookupType("google.pubsub.v1.PublishRequest");
  const PublishResponseType = root.lookupType("google.pubsub.v1.PublishResponse");
  let requests: PublishRequest[] = [];
  const proxy = await grpcProxy(target, (path) => {
    if (path !== PUBLISH) return undefined;
    let request: PublishRequest | undefined;
    let ids: string[] = [];
    return {
      request: (message) => {
        const decoded = PublishRequestType.decode(message) as unknown as {
          topic: string;
          messages: Array<{ data: Uint8Array; attributes: Record<string, string>; orderingKey: string }>;
        };
        request = {
          topic: decoded.topic.split("/").pop() as string,
          messages: decoded.messages.map((each) => ({
            data: each.data.length,
            attributes: Object.entries(each.attributes ?? {}).reduce(
              (sum, [key, value]) => sum + Buffer.byteLength(key) + Buffer.byteLength(value),
              0,
            ),
            orderingKey: Buffer.byteLength(each.orderingKey ?? ""),
            messageId: "",
          })),
        };
      },
      response: (message) => {
        ids = (PublishResponseType.decode(message) as unknown as { messageIds: string[] }).messageIds;
      },
      end: (status) => {
        if (status !== 0 || !request) return;
        request.messages.forEach((each, index) => {
          each.messageId = ids[index] ?? "";
        });
        requests.push(request);
      },
    };
  });
  return {
    host: proxy.host,
    close: proxy.close,
    /** The Publish requests Pub/Sub accepted while `step` ran. */
    async measure<T>(step: () => Promise<T>): Promise<{ result: T; requests: PublishRequest[] }> {
      requests = [];
      const result = await step();
      const taken = requests;
      requests = [];
      return { result, requests: taken };
    },
  };
}
