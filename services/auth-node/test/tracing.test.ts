// Traces through the real server into a real Zipkin (scripts/tests/zipkin.sh, started by
// scripts/services/auth-node.sh for the suite; AUTH_TEST_ZIPKIN_URL names it): a call with a
// traceparent is one server span under the caller's span, named by its RPC, with its status
// and the spans of its validation, token check and store lookup inside; a failing call carries
// its error; a malformed traceparent starts a new trace; and a backend that is down or never
// answers costs the calls nothing but their spans, which are counted as dropped.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, type Server, type Socket } from "node:net";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { Code, createClient } from "@connectrpc/connect";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { loadConfig } from "../src/config.js";
import { TokenService } from "../src/tokens.js";
import { ADMIN, protocols, rejects, sample, type Started, startTestServer } from "./support.js";

const ZIPKIN = process.env["AUTH_TEST_ZIPKIN_URL"];
const VALIDATE = "acme.auth.v1.AuthService/ValidateToken";

interface ZipkinSpan {
  traceId: string;
  id: string;
  parentId?: string;
  name: string;
  kind?: string;
  timestamp: number;
  duration: number;
  localEndpoint: { serviceName: string };
  tags?: Record<string, string>;
}

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/** A caller's span: a fresh trace and span id, sampled. */
function callerSpan(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = hex(16);
  const spanId = hex(8);
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/** The spans Zipkin holds for traceId once at least count arrived (export is asynchronous:
 * a span waits up to the flush interval in the queue). */
async function trace(traceId: string, count: number): Promise<ZipkinSpan[]> {
  const deadline = Date.now() + loadConfig({}).tracing.flushIntervalMs + 15_000;
  let spans: ZipkinSpan[] = [];
  while (Date.now() < deadline) {
    const res = await fetch(`${ZIPKIN}/api/v2/trace/${traceId}`);
    if (res.status === 200) spans = (await res.json()) as ZipkinSpan[];
    else await res.arrayBuffer();
    if (spans.length >= count) return spans;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.fail(`Zipkin has ${spans.length} spans of trace ${traceId}, expected ${count}: ${JSON.stringify(spans)}`);
}

/** Zipkin keeps span names in lower case. */
const named = (spans: ZipkinSpan[], name: string) => spans.filter((s) => s.name === name.toLowerCase());

function only(spans: ZipkinSpan[], name: string): ZipkinSpan {
  const found = named(spans, name);
  assert.equal(found.length, 1, `one span ${name} expected in ${JSON.stringify(spans.map((s) => s.name))}`);
  return found[0]!;
}

async function dropped(s: Started, reason: string): Promise<number> {
  const scrape = await (await fetch(`http://127.0.0.1:${s.server.metricsPort}/metrics`)).text();
  return sample(scrape, "auth_trace_spans_dropped_total", { reason });
}

async function restValidate(s: Started, token: string, traceparent: string): Promise<Response> {
  const res = await fetch(`http://127.0.0.1:${s.server.restPort}/api/validate`, {
    method: "POST",
    headers: { "content-type": "application/json", traceparent },
    body: JSON.stringify({ token }),
  });
  await res.arrayBuffer();
  return res;
}

describe("traces in Zipkin", () => {
  let s: Started;
  let token: string;
  before(async () => {
    assert.ok(ZIPKIN, "AUTH_TEST_ZIPKIN_URL must name a running Zipkin (scripts/services/auth-node.sh test starts one)");
    const tracing = { ...loadConfig({}).tracing, zipkinEndpoint: `${ZIPKIN}/api/v2/spans` };
    s = await startTestServer({ tracing });
    token = (await createClient(AuthService, s.clients.transport("grpc")).login(ADMIN)).token;
  });
  after(async () => {
    await s?.close();
  });

  for (const protocol of protocols) {
    it(`a ${protocol} call with a traceparent is a server span under the caller's, with its status and inner spans`, async () => {
      const caller = callerSpan();
      const client = createClient(AuthService, s.clients.transport(protocol));
      await client.validateToken({ token }, { headers: { traceparent: caller.traceparent } });
      const spans = await trace(caller.traceId, 4);
      const server = only(spans, VALIDATE);
      assert.equal(server.kind, "SERVER");
      assert.equal(server.parentId, caller.spanId);
      assert.equal(server.localEndpoint.serviceName, "auth-node");
      assert.equal(server.tags?.["rpc.grpc.status_code"], "0");
      assert.equal(server.tags?.["rpc.service"], "acme.auth.v1.AuthService");
      assert.equal(server.tags?.["rpc.method"], "ValidateToken");
      assert.equal(server.tags?.["acme.protocol"], protocol);
      assert.equal(server.tags?.["error"], undefined);
      for (const inner of ["validate", "token.verify", "store.find"]) {
        const span = only(spans, inner);
        assert.equal(span.parentId, server.id, `${inner} is inside the server span`);
        assert.equal(span.kind, undefined);
        // Zipkin's times are whole microseconds, each start and duration rounded on its own.
        const slack = 2;
        assert.ok(
          span.timestamp >= server.timestamp - slack && span.timestamp + span.duration <= server.timestamp + server.duration + slack,
          `${inner} [${span.timestamp}, +${span.duration}] lies inside the server span [${server.timestamp}, +${server.duration}]`,
        );
      }
    });
  }

  it("a REST twin call with a traceparent is a server span under the caller's too", async () => {
    const caller = callerSpan();
    assert.equal((await restValidate(s, token, caller.traceparent)).status, 200);
    const spans = await trace(caller.traceId, 4);
    const server = only(spans, VALIDATE);
    assert.equal(server.parentId, caller.spanId);
    assert.equal(server.tags?.["acme.protocol"], "rest");
    assert.equal(server.tags?.["rpc.grpc.status_code"], "0");
    for (const inner of ["validate", "token.verify", "store.find"]) assert.equal(only(spans, inner).parentId, server.id);
  });

  it("scripts/tests/trace-tree.py prints a trace as an indented tree: service, span, duration, status", async () => {
    const caller = callerSpan();
    await createClient(AuthService, s.clients.transport("grpc")).validateToken({ token }, { headers: { traceparent: caller.traceparent } });
    await trace(caller.traceId, 4);
    const script = fileURLToPath(new URL("../../../../scripts/tests/trace-tree.py", import.meta.url));
    const lines = execFileSync("python3", [script, ZIPKIN!, caller.traceId], { encoding: "utf8" }).trimEnd().split("\n");
    assert.equal(lines.length, 4, lines.join("\n"));
    assert.match(lines[0]!, /^auth-node {2}acme\.auth\.v1\.authservice\/validatetoken {2}\d+\.\d ms {2}OK$/);
    // Its three inner spans, indented under it, in the order they started.
    assert.deepEqual(lines.slice(1).map((l) => l.replace(/ {2}[\d.]+ ms.*$/, "")), ["  auth-node  validate", "  auth-node  token.verify", "  auth-node  store.find"]);
  });

  it("a call that fails (an expired token) carries its status as an error, on its span and its token check's", async () => {
    const settings = { issuer: "acme-auth-test", audience: "acme-test", ttlSeconds: 60, clockSkewSeconds: 0 };
    const expired = await new TokenService(s.server.app.signingKey, settings, () => Date.now() - 3_600_000).issue(ADMIN.username, ["ROLE_ADMIN"]);
    for (const protocol of ["grpc", "rest"] as const) {
      const caller = callerSpan();
      if (protocol === "grpc") {
        const client = createClient(AuthService, s.clients.transport("grpc"));
        await rejects(client.validateToken({ token: expired.token }, { headers: { traceparent: caller.traceparent } }), Code.Unauthenticated);
      } else {
        assert.equal((await restValidate(s, expired.token, caller.traceparent)).status, 401);
      }
      // validate and token.verify; the store is never asked about an expired token.
      const spans = await trace(caller.traceId, 3);
      const server = only(spans, VALIDATE);
      assert.equal(server.parentId, caller.spanId);
      assert.equal(server.tags?.["rpc.grpc.status_code"], String(Code.Unauthenticated));
      assert.equal(server.tags?.["error"], "UNAUTHENTICATED");
      assert.equal(server.tags?.["otel.status_code"], "ERROR");
      assert.equal(only(spans, "token.verify").tags?.["error"], "error", "the token check failed");
      assert.equal(named(spans, "store.find").length, 0);
    }
  });

  it("a malformed traceparent starts a new trace", async () => {
    const malformed = [
      (t: string, p: string) => `00-${t}-${p}-0x`, // flags not hex
      (t: string, p: string) => `00-${t.toUpperCase()}-${p}-01`, // upper-case hex
      (t: string, p: string) => `ff-${t}-${p}-01`, // version ff is invalid
      (t: string, p: string) => `00-${t}-${p}`, // no flags
      (_t: string, p: string) => `00-${"0".repeat(32)}-${p}-01`, // the invalid all-zero trace id
    ];
    const client = createClient(AuthService, s.clients.transport("grpc"));
    for (const make of malformed) {
      const caller = callerSpan();
      const since = Date.now() * 1000;
      await client.validateToken({ token }, { headers: { traceparent: make(caller.traceId, caller.spanId) } });
      // Found by service, name and time: the only ValidateToken since the call began.
      const deadline = Date.now() + 15_000;
      let roots: ZipkinSpan[] = [];
      while (Date.now() < deadline) {
        const query = new URLSearchParams({ serviceName: "auth-node", spanName: VALIDATE.toLowerCase(), endTs: String(Date.now() + 1000), lookback: "60000", limit: "1000" });
        const traces = (await (await fetch(`${ZIPKIN}/api/v2/traces?${query}`)).json()) as ZipkinSpan[][];
        roots = traces.flat().filter((span) => span.name === VALIDATE.toLowerCase() && span.timestamp >= since);
        if (roots.length > 0) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.equal(roots.length, 1, `one new ValidateToken span for ${make(caller.traceId, caller.spanId)}`);
      const root = roots[0]!;
      assert.equal(root.parentId, undefined, "a new trace: no parent");
      assert.notEqual(root.traceId, caller.traceId);
      assert.notEqual(root.traceId, "0".repeat(32));
      assert.equal(root.tags?.["rpc.grpc.status_code"], "0");
      const missing = await fetch(`${ZIPKIN}/api/v2/trace/${caller.traceId}`);
      await missing.arrayBuffer();
      assert.equal(missing.status, 404, "nothing joined the malformed trace");
    }
  });
});

describe("a tracing backend that is down or never answers", () => {
  it("down (connection refused): calls succeed and the spans are counted as dropped", async () => {
    const closed = await unusedPort();
    const tracing = { ...loadConfig({}).tracing, zipkinEndpoint: `http://127.0.0.1:${closed}/api/v2/spans`, flushIntervalMs: 100 };
    const s = await startTestServer({ tracing });
    try {
      const client = createClient(AuthService, s.clients.transport("grpc"));
      const { token } = await client.login(ADMIN);
      for (let i = 0; i < 20; i++) {
        const res = await client.validateToken({ token }, { headers: { traceparent: callerSpan().traceparent } });
        assert.equal(res.subject, ADMIN.username);
      }
      // Login (4 spans) and 20 ValidateTokens (4 each): every one dropped, once each export fails.
      await until(async () => (await dropped(s, "export_failed")) >= 84, "export_failed ≥ 84");
      assert.equal(await dropped(s, "queue_full"), 0);
      assert.ok(s.lines.some((l) => l.includes("trace export failed")), "the failure is logged");
    } finally {
      await s.close();
    }
  });

  it("never answering: calls do not wait for it, the queue stays bounded, and what it drops is counted", async () => {
    const hole = await blackHole();
    // A small queue and a long export timeout: a call that waited for the export would take
    // seconds, and a queue without a bound would hold every span.
    const tracing = {
      zipkinEndpoint: `http://127.0.0.1:${hole.port}/api/v2/spans`,
      queueSpans: 8,
      batchSpans: 4,
      flushIntervalMs: 20,
      exportTimeoutMs: 4000,
    };
    const s = await startTestServer({ tracing });
    try {
      const client = createClient(AuthService, s.clients.transport("grpc"));
      const { token } = await client.login(ADMIN);
      const started = performance.now();
      for (let i = 0; i < 40; i++) await client.validateToken({ token });
      const elapsed = performance.now() - started;
      // Not a speed target: 40 calls that each waited on the stuck export would take 4 s each.
      assert.ok(elapsed < tracing.exportTimeoutMs, `40 calls took ${Math.round(elapsed)} ms, as long as a stuck export`);
      assert.ok(hole.connections() >= 1, "the exporter did reach the backend");
      // 164 spans, at most 8 queued and 4 in the stuck export: the rest were refused at once.
      assert.ok((await dropped(s, "queue_full")) >= 164 - 8 - 4 * 2);
      await until(async () => (await dropped(s, "export_failed")) >= 4, "the stuck export's batch counted at its timeout");
    } finally {
      await s.close();
      hole.close();
    }
  });
});

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`not reached within 20 s: ${what}`);
}

async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A backend that accepts connections and reads requests but never answers. */
async function blackHole(): Promise<{ port: number; connections(): number; close(): void }> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server: Server = createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on("data", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => count,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
