// The connections a port holds, and how long an idle HTTP/2 connection is kept: past the limit a
// new connection is closed as soon as it is accepted (and counted), the ones already open keep
// serving, and an HTTP/2 connection with no call on it for the idle time is sent GOAWAY.
import assert from "node:assert/strict";
import type { ClientHttp2Session } from "node:http2";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { describe, it } from "node:test";
import { create, toBinary } from "@bufbuild/protobuf";
import { LoginRequestSchema } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { loadConfig } from "../src/config.js";
import { limitConnections } from "../src/connection-limits.js";
import { createMetrics } from "../src/metrics.js";
import { envelope, grpc, openCall, session } from "./raw-http2.js";
import { ADMIN, captureLogger, sample, type Started, startTestServer } from "./support.js";

const login = envelope(toBinary(LoginRequestSchema, create(LoginRequestSchema, ADMIN)));
const limits = loadConfig({}).limits;

async function scrape(s: Started): Promise<string> {
  return (await fetch(`http://127.0.0.1:${s.server.metricsPort}/metrics`)).text();
}

/** Waits, scraping, until the port reports `open` connections (the server notices a close a
 * moment after the client makes it). */
async function untilOpen(s: Started, port: string, open: number): Promise<void> {
  const deadline = Date.now() + 5000;
  let seen = NaN;
  while (Date.now() < deadline) {
    seen = sample(await scrape(s), "auth_connections_open", { port });
    if (seen === open) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.fail(`the ${port} port reports ${seen} connections open, expected ${open}`);
}

/** A plain TCP connection, once the server has accepted it. */
function tcp(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** The promise, or a failure naming what did not happen within ms (node --test has no timeout
 * of its own: a regression would hang the suite). */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Resolves when the server ends the connection. */
const closedByServer = (socket: Socket) => new Promise<void>((resolve) => {
  socket.on("error", () => {});
  socket.once("close", () => resolve());
});

describe("connections a port holds", () => {
  it("closes an RPC connection past the limit at once, counts it, and serves the ones open", async () => {
    const s = await startTestServer({ limits: { ...limits, connections: 3 } });
    const open: ClientHttp2Session[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const c = session(s.server.port);
        open.push(c);
        assert.equal((await grpc(c, "Login", login)).grpcStatus, 0, `connection ${i + 1} of 3 serves`);
      }
      await untilOpen(s, "rpc", 3);
      // The fourth: accepted by the kernel, closed by the server before it reads a byte.
      const fourth = await tcp(s.server.port);
      await within(5000, "the fourth connection closed by the server", closedByServer(fourth));
      let scraped = await scrape(s);
      assert.equal(sample(scraped, "auth_connections_refused_total", { port: "rpc" }), 1);
      assert.equal(sample(scraped, "auth_connections_refused_total", { port: "rest" }), 0);
      assert.ok(s.lines.some((l) => l.includes("connections refused") && l.includes('"limit":3')), "the refusal is logged with the limit");
      for (const c of open) assert.equal((await grpc(c, "Login", login)).grpcStatus, 0, "the connections open still serve");
      // Liveness asks the metrics port, which no limit fills: a full port is not a dead process.
      const live = await fetch(`http://127.0.0.1:${s.server.metricsPort}/healthz`);
      assert.deepEqual([live.status, await live.text()], [200, "ok\n"]);
      // One closes: its place is free for a new connection.
      open.shift()!.close();
      await untilOpen(s, "rpc", 2);
      const next = session(s.server.port);
      open.push(next);
      assert.equal((await grpc(next, "Login", login)).grpcStatus, 0, "a connection opened after one closed serves");
      scraped = await scrape(s);
      assert.equal(sample(scraped, "auth_connections_refused_total", { port: "rpc" }), 1, "nothing else was refused");
    } finally {
      for (const c of open) c.destroy();
      await s.close();
    }
  });

  it("holds the REST port to the same limit", async () => {
    const s = await startTestServer({ limits: { ...limits, connections: 2 } });
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 2; i++) sockets.push(await tcp(s.server.restPort));
      await untilOpen(s, "rest", 2);
      const third = await tcp(s.server.restPort);
      await within(5000, "the third connection closed by the server", closedByServer(third));
      assert.equal(sample(await scrape(s), "auth_connections_refused_total", { port: "rest" }), 1);
      // A connection held within the limit is served.
      const answer = new Promise<string>((resolve) => {
        let text = "";
        sockets[0]!.on("data", (chunk: Buffer) => {
          text += chunk.toString("latin1");
          if (text.includes("\r\n\r\n")) resolve(text);
        });
      });
      sockets[0]!.write("GET /.well-known/jwks.json HTTP/1.1\r\nhost: localhost\r\n\r\n");
      assert.match(await answer, /^HTTP\/1\.1 200 /);
    } finally {
      for (const socket of sockets) socket.destroy();
      await s.close();
    }
  });
});

describe("connections refused, in the log", () => {
  it("logs the first at once and those after it together once the interval has passed", async () => {
    const { log, lines } = captureLogger();
    const server = createServer((socket) => socket.on("error", () => {}));
    limitConnections(server, 1, "rpc", log, createMetrics(false), 3000);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const held = await tcp(port);
    try {
      const refusals = () => lines.filter((l) => l.includes("connections refused")).map((l) => (JSON.parse(l) as { refused: number }).refused);
      const first = Date.now();
      for (let i = 0; i < 3; i++) await within(2000, `refused connection ${i + 1}`, closedByServer(await tcp(port)));
      if (Date.now() - first < 2500) assert.deepEqual(refusals(), [1], "the first at once, the next two held back");
      // Before: the two stayed out of the log until another connection was refused.
      const deadline = Date.now() + 10_000;
      while (refusals().length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(refusals(), [1, 2]);
      assert.ok(Date.now() - first >= 2900, `the two logged ${Date.now() - first} ms after the first (interval 3,000 ms)`);
    } finally {
      held.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("an idle HTTP/2 connection", () => {
  it("is sent GOAWAY after the idle time with no call, however many PINGs keep it busy", async () => {
    const s = await startTestServer({ limits: { ...limits, connectionIdleSeconds: 1 } });
    const c = session(s.server.port);
    try {
      const goaway = new Promise<number>((resolve) => c.once("goaway", (code: number) => resolve(code)));
      assert.equal((await grpc(c, "Login", login)).grpcStatus, 0);
      const idleFrom = Date.now();
      const pings = setInterval(() => c.ping(() => {}), 100);
      try {
        assert.equal(await within(10_000, "GOAWAY", goaway), 0, "GOAWAY with NO_ERROR");
      } finally {
        clearInterval(pings);
      }
      // From the client's sight of the answer: the server's timer starts when the stream closes,
      // a moment before, and a loaded machine can make that moment long.
      const idle = Date.now() - idleFrom;
      assert.ok(idle >= 500 && idle < 5000, `GOAWAY ${idle} ms after the last call ended (idle time 1,000 ms)`);
    } finally {
      c.destroy();
      await s.close();
    }
  });

  it("is kept while a call is open on it, and sent GOAWAY the idle time after the call ends", async () => {
    const s = await startTestServer({ limits: { ...limits, connectionIdleSeconds: 1 } });
    const c = session(s.server.port);
    try {
      let goawayAt: number | undefined;
      const goaway = new Promise<number>((resolve) => c.once("goaway", () => resolve((goawayAt = Date.now()))));
      // A call whose request takes 2.5 s to arrive (within the arrival limit) holds the stream.
      const { req, answered } = openCall(c, "Login");
      req.write(login.subarray(0, 3));
      await new Promise((resolve) => setTimeout(resolve, 2500));
      assert.equal(goawayAt, undefined, "no GOAWAY while the call was open");
      req.end(login.subarray(3));
      assert.equal(await answered, "0");
      const ended = Date.now();
      const idle = (await within(10_000, "GOAWAY", goaway)) - ended;
      assert.ok(idle >= 500 && idle < 5000, `GOAWAY ${idle} ms after the call ended (idle time 1,000 ms)`);
    } finally {
      c.destroy();
      await s.close();
    }
  });
});
