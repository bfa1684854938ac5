import { GrpcStatus, grpcChannel } from "@usage-ingestion/shared/server";
import { afterEach, describe, expect, it } from "vitest";
import { closeStandIns, echo, fixture, frameOf, PATH, soon, standIn } from "../../test/setup/grpc-stand-in.ts";
import { cutProxy } from "./cut-proxy.ts";

afterEach(closeStandIns);

/** The canary's connection drop, against a local TLS server instead of Google's (which it cannot reach here). */
describe("the canary's cut proxy", () => {
  it("resets the first connection mid-request, and the retry on a new one goes through it untouched", async () => {
    const seen: number[] = [];
    const { origin } = await standIn((stream, headers, body) => {
      seen.push(body.length);
      echo(stream, headers, body);
    }, true);
    const proxy = await cutProxy("localhost", Number(new URL(origin).port), 64 * 1024, fixture("localhost-cert.pem"));
    const channel = grpcChannel({ origin: "https://localhost:443", createConnection: proxy.createConnection });
    const large = frameOf("x".repeat(256 * 1024));
    const first = await channel.unary(PATH, large, {}, soon()).catch((error: { code?: number }) => error);
    expect(first).toMatchObject({ code: GrpcStatus.UNAVAILABLE });
    expect(proxy.wasCut()).toBe(true);
    expect(seen).toEqual([]);
    expect((await channel.unary(PATH, large, {}, soon())).length).toBe(256 * 1024);
    expect(proxy.connections()).toBe(2);
    await channel.close();
    await proxy.close();
  });
});
