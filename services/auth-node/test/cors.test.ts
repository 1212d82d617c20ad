// CORS on the RPC port, through the real server: what a browser sends (a preflight, then the
// call with Origin) from an allowed origin and from any other, over Connect and gRPC-Web.
import assert from "node:assert/strict";
import type { ClientHttp2Session } from "node:http2";
import { after, before, describe, it } from "node:test";
import { create, toBinary } from "@bufbuild/protobuf";
import { ValidateTokenRequestSchema } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { ConfigError, loadConfig } from "../src/config.js";
import { envelope, post, session } from "./raw-http2.js";
import { type Started, startTestServer } from "./support.js";

const APP = "https://app.example.com";
const VALIDATE = "/acme.auth.v1.AuthService/ValidateToken";

function request(s: ClientHttp2Session, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = s.request(headers);
    const chunks: Buffer[] = [];
    let answer: Record<string, unknown> = {};
    req.on("response", (h) => (answer = h));
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("error", reject);
    req.on("end", () => resolve({ status: Number(answer[":status"]), headers: answer, body: Buffer.concat(chunks) }));
    req.end();
  });
}

const preflight = (s: ClientHttp2Session, origin: string, method = "POST", headers = "content-type,connect-protocol-version,authorization") =>
  request(s, {
    ":method": "OPTIONS",
    ":path": VALIDATE,
    origin,
    "access-control-request-method": method,
    "access-control-request-headers": headers,
  });

const connectCall = (s: ClientHttp2Session, origin?: string) =>
  post(s, VALIDATE, { "content-type": "application/json", "connect-protocol-version": "1", ...(origin ? { origin } : {}) },
    Buffer.from(JSON.stringify({ token: "not-a-token" })));

const corsHeaders = (headers: Record<string, unknown>) => Object.keys(headers).filter((h) => h.startsWith("access-control-"));

describe("CORS, with an allowed origin configured", () => {
  let s: Started;
  let h2: ClientHttp2Session;
  before(async () => {
    s = await startTestServer({ cors: { allowedOrigins: [APP], allowCredentials: false, maxAgeSeconds: 600 } });
    h2 = session(s.server.port);
  });
  after(async () => {
    h2.close();
    await s.close();
  });

  it("answers the preflight: the methods and headers Connect needs, cached for the configured time", async () => {
    const answer = await preflight(h2, APP);
    assert.equal(answer.status, 204);
    assert.equal(answer.headers["access-control-allow-origin"], APP);
    assert.match(String(answer.headers["access-control-allow-methods"]), /POST/);
    for (const h of ["content-type", "connect-protocol-version", "connect-timeout-ms", "x-grpc-web", "grpc-timeout", "authorization"]) {
      assert.match(String(answer.headers["access-control-allow-headers"]), new RegExp(`\\b${h}\\b`), h);
    }
    assert.equal(answer.headers["access-control-max-age"], "600");
    assert.match(String(answer.headers["vary"]), /Origin/);
    assert.equal(answer.headers["access-control-allow-credentials"], undefined);
  });

  it("serves the allowed origin's Connect call and exposes what a Connect client reads", async () => {
    const answer = await connectCall(h2, APP);
    assert.equal(answer.httpStatus, 401);
    assert.equal(JSON.parse(answer.body.toString()).code, "unauthenticated");
    assert.equal(answer.headers["access-control-allow-origin"], APP);
    const exposed = String(answer.headers["access-control-expose-headers"]);
    for (const h of ["grpc-status", "grpc-message", "grpc-status-details-bin", "acme-contracts-version", "retry-after"]) {
      assert.match(exposed, new RegExp(`\\b${h}\\b`), h);
    }
  });

  it("serves the allowed origin's gRPC-Web call with the same headers", async () => {
    const message = envelope(toBinary(ValidateTokenRequestSchema, create(ValidateTokenRequestSchema, { token: "not-a-token" })));
    const answer = await post(h2, VALIDATE, { "content-type": "application/grpc-web+proto", "x-grpc-web": "1", origin: APP }, message);
    assert.equal(answer.httpStatus, 200);
    assert.equal(answer.headers["access-control-allow-origin"], APP);
    assert.match(String(answer.headers["access-control-expose-headers"]), /\bgrpc-status\b/);
    assert.match(answer.body.toString("latin1"), /grpc-status:\s*16/);
  });

  it("gives another origin no CORS headers and no answer, on the preflight and on the call", async () => {
    const pre = await preflight(h2, "https://evil.example.com");
    assert.equal(pre.status, 403);
    assert.deepEqual(corsHeaders(pre.headers), []);
    const call = await connectCall(h2, "https://evil.example.com");
    assert.equal(call.httpStatus, 403);
    assert.deepEqual(corsHeaders(call.headers), []);
    assert.equal(call.body.length, 0);
  });

  it("refuses a preflight for a method or a header Connect does not use", async () => {
    for (const answer of [await preflight(h2, APP, "PUT"), await preflight(h2, APP, "DELETE"), await preflight(h2, APP, "POST", "content-type,x-secret")]) {
      assert.equal(answer.status, 403);
      assert.deepEqual(corsHeaders(answer.headers), []);
    }
  });

  it("serves a call without Origin (no browser) as before, without CORS headers", async () => {
    const answer = await connectCall(h2);
    assert.equal(answer.httpStatus, 401);
    assert.deepEqual(corsHeaders(answer.headers), []);
  });
});

describe("CORS by default: no origin allowed", () => {
  let s: Started;
  let h2: ClientHttp2Session;
  before(async () => {
    s = await startTestServer();
    h2 = session(s.server.port);
  });
  after(async () => {
    h2.close();
    await s.close();
  });

  it("refuses every cross-origin preflight and call", async () => {
    assert.equal((await preflight(h2, APP)).status, 403);
    const call = await connectCall(h2, APP);
    assert.equal(call.httpStatus, 403);
    assert.deepEqual(corsHeaders(call.headers), []);
  });
});

describe("CORS with credentials", () => {
  it("says so to the allowed origin", async () => {
    const s = await startTestServer({ cors: { allowedOrigins: [APP], allowCredentials: true, maxAgeSeconds: 60 } });
    const h2 = session(s.server.port);
    try {
      const answer = await preflight(h2, APP);
      assert.equal(answer.headers["access-control-allow-credentials"], "true");
      assert.equal(answer.headers["access-control-allow-origin"], APP);
    } finally {
      h2.close();
      await s.close();
    }
  });

  it("is never combined with every origin, and origins are checked at start", () => {
    assert.throws(() => loadConfig({ AUTH_CORS_ALLOWED_ORIGINS: "*", AUTH_CORS_ALLOW_CREDENTIALS: "true" }), ConfigError);
    assert.throws(() => loadConfig({ AUTH_CORS_ALLOWED_ORIGINS: "https://app.example.com/path" }), /AUTH_CORS_ALLOWED_ORIGINS/);
    assert.throws(() => loadConfig({ AUTH_CORS_ALLOWED_ORIGINS: "*, https://a.example" }), /AUTH_CORS_ALLOWED_ORIGINS/);
    assert.throws(() => loadConfig({ AUTH_CORS_ALLOW_CREDENTIALS: "yes" }), /AUTH_CORS_ALLOW_CREDENTIALS/);
    assert.deepEqual(loadConfig({ AUTH_CORS_ALLOWED_ORIGINS: "https://A.example.com, http://localhost:5173" }).cors.allowedOrigins,
      ["https://a.example.com", "http://localhost:5173"]);
    assert.deepEqual(loadConfig({}).cors, { allowedOrigins: [], allowCredentials: false, maxAgeSeconds: 7200 });
  });
});
