// The connections a port holds, and how long an idle HTTP/2 connection is kept: past the limit a
// new connection is closed as soon as it is accepted (and counted), the ones already open keep
// serving, and an HTTP/2 connection with no call on it for the idle time is sent GOAWAY.
import assert from "node:assert/strict";
import type { ClientHttp2Session } from "node:http2";
import { connect, type Socket } from "node:net";
import { describe, it } from "node:test";
import { create, toBinary } from "@bufbuild/protobuf";
import { LoginRequestSchema } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { loadConfig } from "../src/config.js";
import { envelope, grpc, openCall, session } from "./raw-http2.js";
import { ADMIN, sample, type Started, startTestServer } from "./support.js";

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
      await closedByServer(fourth);
      let scraped = await scrape(s);
      assert.equal(sample(scraped, "auth_connections_refused_total", { port: "rpc" }), 1);
      assert.equal(sample(scraped, "auth_connections_refused_total", { port: "rest" }), 0);
      assert.ok(s.lines.some((l) => l.includes("connections refused") && l.includes('"limit":3')), "the refusal is logged with the limit");
      for (const c of open) assert.equal((await grpc(c, "Login", login)).grpcStatus, 0, "the connections open still serve");
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
      await closedByServer(third);
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
        assert.equal(await goaway, 0, "GOAWAY with NO_ERROR");
      } finally {
        clearInterval(pings);
      }
      const idle = Date.now() - idleFrom;
      assert.ok(idle >= 900 && idle < 5000, `GOAWAY ${idle} ms after the last call ended (idle time 1,000 ms)`);
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
      const idle = (await goaway) - ended;
      assert.ok(idle >= 900 && idle < 5000, `GOAWAY ${idle} ms after the call ended (idle time 1,000 ms)`);
    } finally {
      c.destroy();
      await s.close();
    }
  });
});
