// /metrics through the real server: calls on every protocol, then a scrape. Each call must be
// counted once under its RPC, protocol and status, with its phases; logins and token checks by
// outcome; Node's runtime metrics present; and nothing at all when metrics are off.
import assert from "node:assert/strict";
import type { ClientHttp2Session } from "node:http2";
import { after, before, describe, it } from "node:test";
import { create, toBinary } from "@bufbuild/protobuf";
import { Code, createClient } from "@connectrpc/connect";
import { AuthService, ValidateTokenRequestSchema } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { envelope, grpc, post, session } from "./raw-http2.js";
import { ADMIN, type Protocol, protocols, rejects, sample, type Started, startTestServer } from "./support.js";

const VALIDATE = { rpc_service: "acme.auth.v1.AuthService", rpc_method: "ValidateToken" };
const GARBAGE = Buffer.from([0x07, 0xff, 0xff, 0xff, 0xff, 0xff]);

describe("metrics", () => {
  let s: Started;
  let h2: ClientHttp2Session;
  let token: string;
  const scrape = async () => {
    const res = await fetch(`http://127.0.0.1:${s.server.metricsPort}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /text\/plain/);
    return res.text();
  };
  before(async () => {
    s = await startTestServer({ loginLimits: { perUserAndAddress: 2, perAddress: 1000, perUser: 1000, windowSeconds: 900 } });
    h2 = session(s.server.port);
    token = (await createClient(AuthService, s.clients.transport("grpc")).login(ADMIN)).token;
  });
  after(async () => {
    h2.close();
    await s.close();
  });

  it("counts every call once, by RPC, protocol and status, with its latency and phases", async () => {
    const before = await scrape();
    for (const protocol of protocols) {
      const client = createClient(AuthService, s.clients.transport(protocol as Protocol));
      await client.validateToken({ token });
      await client.validateToken({ token });
      await rejects(client.validateToken({ token: "not-a-token" }), Code.Unauthenticated);
    }
    for (const body of [{ token }, { token }, { token: "not-a-token" }]) {
      await fetch(`http://127.0.0.1:${s.server.restPort}/api/validate`, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
      });
    }
    // Refused while decoding, before any interceptor: on the gRPC path and through connect-es.
    await grpc(h2, "ValidateToken", envelope(GARBAGE));
    await post(h2, "/acme.auth.v1.AuthService/ValidateToken", { "content-type": "application/proto" }, GARBAGE);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);

    for (const protocol of [...protocols, "rest"]) {
      assert.equal(delta("rpc_server_requests_total", { ...VALIDATE, protocol, grpc_status_code: "OK" }), 2, `${protocol} OK`);
      assert.equal(delta("rpc_server_requests_total", { ...VALIDATE, protocol, grpc_status_code: "UNAUTHENTICATED" }), 1, `${protocol} UNAUTHENTICATED`);
      assert.equal(delta("rpc_server_duration_seconds_count", { ...VALIDATE, protocol, grpc_status_code: "OK" }), 2, `${protocol} duration`);
      assert.ok(delta("rpc_server_duration_seconds_sum", { ...VALIDATE, protocol, grpc_status_code: "OK" }) > 0);
      const phases = protocol === "grpc" || protocol === "rest" ? ["decode", "validate", "handle", "encode"] : ["validate", "handle"];
      for (const phase of phases) {
        assert.equal(delta("auth_call_phase_seconds_count", { method: "ValidateToken", protocol, phase }), phase === "encode" ? 2 : 3, `${protocol} ${phase}`);
      }
    }
    for (const protocol of ["grpc", "connect"]) {
      assert.equal(delta("rpc_server_requests_total", { ...VALIDATE, protocol, grpc_status_code: "INVALID_ARGUMENT" }), 1, `${protocol} undecodable`);
    }
    assert.equal(delta("auth_token_validations_total", { outcome: "valid" }), 8);
    assert.equal(delta("auth_token_validations_total", { outcome: "invalid" }), 4);
  });

  it("counts logins by outcome, never by reason", async () => {
    const before = await scrape();
    const client = createClient(AuthService, s.clients.transport("connect"));
    await client.login(ADMIN);
    await rejects(client.login({ username: "nobody-here", password: "wrong-password-1" }), Code.Unauthenticated);
    await rejects(client.login({ username: "nobody-here", password: "wrong-password-1" }), Code.Unauthenticated);
    await rejects(client.login({ username: "nobody-here", password: "wrong-password-1" }), Code.ResourceExhausted);
    const after = await scrape();
    const delta = (outcome: string) => sample(after, "auth_login_attempts_total", { outcome }) - sample(before, "auth_login_attempts_total", { outcome });
    assert.deepEqual([delta("success"), delta("failed"), delta("throttled")], [1, 2, 1]);
    assert.doesNotMatch(after, /unknown_user|wrong_password/);
  });

  it("serves Node's runtime metrics: event-loop lag, GC, heap", async () => {
    global.gc?.();
    const text = await scrape();
    for (const name of ["nodejs_eventloop_lag_seconds", "nodejs_heap_size_used_bytes", "process_cpu_seconds_total", "nodejs_active_handles_total"]) {
      assert.match(text, new RegExp(`^${name}`, "m"), name);
    }
    assert.match(text, /^# TYPE nodejs_gc_duration_seconds histogram/m);
  });

  it("answers nothing but GET /metrics and GET /healthz", async () => {
    assert.equal((await fetch(`http://127.0.0.1:${s.server.metricsPort}/healthz`)).status, 200);
    assert.equal((await fetch(`http://127.0.0.1:${s.server.metricsPort}/healthz`, { method: "POST" })).status, 404);
    assert.equal((await fetch(`http://127.0.0.1:${s.server.metricsPort}/`)).status, 404);
    assert.equal((await fetch(`http://127.0.0.1:${s.server.metricsPort}/metrics`, { method: "POST" })).status, 404);
  });
});

describe("metrics off", () => {
  it("opens no port and counts nothing", async () => {
    const s = await startTestServer({ metrics: { enabled: false, port: 0 } });
    try {
      assert.equal(s.server.metricsPort, undefined);
      assert.equal(s.server.app.metrics.registry, undefined);
      const request = envelope(toBinary(ValidateTokenRequestSchema, create(ValidateTokenRequestSchema, { token: "x" })));
      const h2 = session(s.server.port);
      assert.equal((await grpc(h2, "ValidateToken", request)).grpcStatus, 16);
      h2.close();
    } finally {
      await s.close();
    }
  });
});
