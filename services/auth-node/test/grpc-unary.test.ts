// The unary gRPC path (src/grpc-unary.ts) answers exactly what connect-es's own handlers
// answer: the same app behind two RPC listeners, one with the path and one without, gets
// the same requests — good ones and what an attacker sends — and every answer must match in
// status, headers, body bytes and trailers. Anything the path gets wrong shows here as a
// difference, not as a client that happens not to notice.
import assert from "node:assert/strict";
import { type ClientHttp2Session, connect, createServer, type Http2Server, type IncomingHttpHeaders } from "node:http2";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { create, type DescMessage, type MessageInitShape, toBinary } from "@bufbuild/protobuf";
import { createContextValues, createHandlerContext } from "@connectrpc/connect";
import {
  AuthService,
  CreateUserRequestSchema,
  ListUsersRequestSchema,
  LoginRequestSchema,
  ValidateTokenRequestSchema,
} from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { Role } from "@acme/contracts/acme/auth/v1/user_pb";
import { type App, createApp } from "../src/app.js";
import { clientAddressKey } from "../src/context.js";
import { rpcStreamHandler } from "../src/rpc-port.js";
import { HealthCheckRequestSchema } from "../src/gen/grpc/health/v1/health_pb.js";
import { envelope } from "./raw-http2.js";
import { ADMIN, captureLogger, removeDir, tempDataDir, testConfig } from "./support.js";

interface Answer {
  status: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
  trailers: IncomingHttpHeaders;
  reset: number;
}

function call(s: ClientHttp2Session, path: string, headers: Record<string, string>, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = s.request({ ":method": "POST", ":path": path, "content-type": "application/grpc", te: "trailers", ...headers });
    let responseHeaders: IncomingHttpHeaders = {};
    let trailers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    req.on("response", (h) => (responseHeaders = h));
    req.on("trailers", (t) => (trailers = t));
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("error", reject);
    req.on("close", () => {
      const { date: _date, ...rest } = responseHeaders;
      resolve({ status: rest[":status"]?.toString(), headers: rest, body: Buffer.concat(chunks).toString("hex"), trailers, reset: req.rstCode ?? 0 });
    });
    req.end(body);
  });
}

const message = <D extends DescMessage>(schema: D, init: MessageInitShape<D>) => Buffer.from(toBinary(schema, create(schema, init)));
const auth = (method: string) => `/acme.auth.v1.AuthService/${method}`;
const GARBAGE = Buffer.from([0x07, 0xff, 0xff, 0xff, 0xff, 0xff]);

describe("the unary gRPC path answers as connect-es does", () => {
  let app: App;
  let dataDir: string;
  const servers: Http2Server[] = [];
  let fast: ClientHttp2Session;
  let general: ClientHttp2Session;
  let adminToken = "";
  const shutdown = new AbortController();

  before(async () => {
    dataDir = await tempDataDir();
    const config = testConfig(dataDir, { logLevel: "error" });
    app = await createApp(config, captureLogger().log);
    const listen = async (grpcUnaryPath: boolean) => {
      const server = createServer();
      server.on("stream", rpcStreamHandler(app, { limits: config.limits, cors: config.cors, shutdownSignal: shutdown.signal, log: captureLogger().log, grpcUnaryPath }));
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      servers.push(server);
      return connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    };
    fast = await listen(true);
    general = await listen(false);
    adminToken = String((await app.auth.login(create(LoginRequestSchema, ADMIN), fakeContext())).token);
    // Enough users that ListUsers answers more than connect-es's compression threshold.
    for (let i = 0; i < 40; i++) {
      await app.auth.createUser(
        create(CreateUserRequestSchema, { username: `user-${String(i).padStart(3, "0")}`, password: "a-long-enough-password", roles: [Role.USER] }),
        fakeContext({ authorization: `Bearer ${adminToken}` }),
      );
    }
  });
  after(async () => {
    fast.close();
    general.close();
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await app.close();
    await removeDir(dataDir);
  });

  const validate = (token: string) => envelope(message(ValidateTokenRequestSchema, { token }));
  const cases: Array<[string, string, () => Buffer, (() => Record<string, string>)?]> = [
    ["a valid token", auth("ValidateToken"), () => validate(adminToken)],
    ["a valid token, application/grpc+proto", auth("ValidateToken"), () => validate(adminToken), () => ({ "content-type": "application/grpc+proto" })],
    ["a forged token", auth("ValidateToken"), () => validate("not-a-token")],
    ["a request that breaks a rule (violations in the details)", auth("ValidateToken"), () => validate("")],
    ["bytes that are not protobuf", auth("ValidateToken"), () => envelope(GARBAGE)],
    ["no request message", auth("ValidateToken"), () => Buffer.alloc(0)],
    ["two request messages", auth("ValidateToken"), () => Buffer.concat([validate("a"), validate("b")])],
    ["a second message that is not protobuf", auth("ValidateToken"), () => Buffer.concat([validate("a"), envelope(GARBAGE)])],
    ["an envelope cut short", auth("ValidateToken"), () => validate(adminToken).subarray(0, 40)],
    ["half an envelope prefix", auth("ValidateToken"), () => Buffer.from([0, 0, 0])],
    ["a message over the limit", auth("ValidateToken"), () => validate("t".repeat(100_000))],
    ["a compressed message without grpc-encoding", auth("ValidateToken"), () => envelope(gzipSync(message(ValidateTokenRequestSchema, { token: adminToken })), true)],
    ["a gzip message", auth("ValidateToken"), () => envelope(gzipSync(message(ValidateTokenRequestSchema, { token: adminToken })), true), () => ({ "grpc-encoding": "gzip" })],
    ["an uncompressed message that says gzip", auth("ValidateToken"), () => validate(adminToken), () => ({ "grpc-encoding": "gzip" })],
    ["a gzip bomb", auth("ValidateToken"), () => envelope(gzipSync(Buffer.alloc(4 * 1024 * 1024)), true), () => ({ "grpc-encoding": "gzip" })],
    ["bytes that are not gzip", auth("ValidateToken"), () => envelope(GARBAGE, true), () => ({ "grpc-encoding": "gzip" })],
    ["an unknown grpc-encoding", auth("ValidateToken"), () => validate(adminToken), () => ({ "grpc-encoding": "snappy" })],
    ["a malformed grpc-timeout", auth("ValidateToken"), () => validate(adminToken), () => ({ "grpc-timeout": "soon" })],
    ["a generous grpc-timeout", auth("ValidateToken"), () => validate(adminToken), () => ({ "grpc-timeout": "5S" })],
    ["an admin call without a token", auth("ListUsers"), () => envelope(message(ListUsersRequestSchema, {}))],
    ["a large answer, compressed for a client that accepts gzip", auth("ListUsers"), () => envelope(message(ListUsersRequestSchema, {})),
      () => ({ authorization: `Bearer ${adminToken}`, "grpc-accept-encoding": "gzip" })],
    ["a large answer for a client that accepts only identity", auth("ListUsers"), () => envelope(message(ListUsersRequestSchema, {})),
      () => ({ authorization: `Bearer ${adminToken}`, "grpc-accept-encoding": "identity" })],
    ["a malformed admin request before its token is checked", auth("CreateUser"), () => envelope(message(CreateUserRequestSchema, { username: "x" }))],
    ["a wrong password", auth("Login"), () => envelope(message(LoginRequestSchema, { username: ADMIN.username, password: "wrong-password-1" }))],
    ["a health check", "/grpc.health.v1.Health/Check", () => envelope(message(HealthCheckRequestSchema, {}))],
    ["a health check of an unknown service", "/grpc.health.v1.Health/Check", () => envelope(message(HealthCheckRequestSchema, { service: "nope" }))],
    ["a method that does not exist", auth("Nope"), () => validate(adminToken)],
  ];

  for (const [name, path, body, headers] of cases) {
    it(name, async () => {
      const [viaPath, viaConnect] = [await call(fast, path, headers?.() ?? {}, body()), await call(general, path, headers?.() ?? {}, body())];
      assert.deepEqual(viaPath, viaConnect);
      assert.ok(viaPath.status !== undefined, "an answer, not a reset");
    });
  }

  it("serves only binary gRPC: JSON gRPC, gRPC-Web and Connect take connect-es's path", async () => {
    const json = Buffer.from(JSON.stringify({ token: adminToken }));
    const jsonAnswer = await call(fast, auth("ValidateToken"), { "content-type": "application/grpc+json" }, envelope(json));
    assert.equal(jsonAnswer.trailers["grpc-status"], "0");
    assert.deepEqual(jsonAnswer, await call(general, auth("ValidateToken"), { "content-type": "application/grpc+json" }, envelope(json)));
  });
});

/** A HandlerContext for setting up data through app.auth directly. */
function fakeContext(headers: Record<string, string> = {}) {
  return createHandlerContext({
    service: AuthService,
    method: AuthService.method.login,
    protocolName: "test",
    requestMethod: "POST",
    url: "/",
    requestHeader: headers,
    contextValues: createContextValues().set(clientAddressKey, "127.0.0.1"),
  });
}
