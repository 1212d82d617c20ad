// Start-up: the RPC port (gRPC, gRPC-Web and Connect over cleartext HTTP/2, Connect and
// gRPC-Web over HTTP/1.1, on one listener) and the REST port (HTTP/1.1), both on the same App,
// and the graceful shutdown of both.
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer as createHttp2Server, type Http2Server, type ServerHttp2Session } from "node:http2";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { type App, createApp } from "./app.js";
import type { Config, Limits } from "./config.js";
import { limitConnectionAge } from "./connection-age.js";
import { closeWhenIdle, limitConnections } from "./connection-limits.js";
import type { Logger } from "./log.js";
import { metricsServer } from "./metrics-server.js";
import { restHandler } from "./rest.js";
import { shareListener } from "./rpc-listener.js";
import { rpcPort } from "./rpc-port.js";
import { answeredEarly, http1Limits, http1Requests } from "./transport-limits.js";

export interface RunningServer {
  port: number;
  restPort: number;
  /** Where GET /metrics answers; undefined when metrics are off. */
  metricsPort: number | undefined;
  app: App;
  /** Graceful: refuse new calls, let calls in flight finish (up to the grace period), then close. */
  close(): Promise<void>;
}

export interface ServerOptions {
  /** Off: binary gRPC unary calls too go through connect-es's handlers (rpc-port.ts). */
  grpcUnaryPath?: boolean;
}

export async function startServer(config: Config, log: Logger, options: ServerOptions = {}): Promise<RunningServer> {
  const app = await createApp(config, log);
  const shutdown = new AbortController();
  const draining = new AbortController();
  const handlers = rpcPort(app, {
    limits: config.limits,
    cors: config.cors,
    shutdownSignal: shutdown.signal,
    drainSignal: draining.signal,
    log,
    grpcUnaryPath: options.grpcUnaryPath,
  });
  // The header list a client may send: advertised in SETTINGS, enforced by rpc-port.ts; the
  // streams a client may open at once on one connection. No request listener: the core
  // stream API only, without the request/response compatibility layer. It does not listen:
  // the RPC port's HTTP/1.1 server hands it the connections that open with HTTP/2's preface.
  const rpc2 = createHttp2Server({
    settings: { maxHeaderListSize: config.limits.headerListBytes, maxConcurrentStreams: config.limits.streamsPerConnection },
  });
  rpc2.on("stream", handlers.stream);
  const sessions = new Set<ServerHttp2Session>();
  rpc2.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
    limitConnectionAge(session, config.connectionAge);
    closeWhenIdle(session, config.limits.connectionIdleSeconds * 1000);
  });
  const rpc = createHttpServer(http1Limits(config.limits), handlers.http1);
  shareListener(rpc, rpc2, config.limits.requestArrivalSeconds * 1000);
  rpc.on("clientError", answerClientError(config.limits));
  // The same head and arrival limits as the RPC port's HTTP/1.1 side: with Node's defaults
  // (60 s for the head, 300 s for the request, looked at every 30 s) one slow client held a
  // REST connection for minutes.
  const rest = createHttpServer(http1Limits(config.limits), restHandler(app, config.limits.restBodyBytes, log.child({ port: "rest" })));
  rest.on("clientError", answerClientError(config.limits));
  limitConnections(rpc, config.limits.connections, "rpc", log, app.metrics);
  limitConnections(rest, config.limits.connections, "rest", log, app.metrics);

  const metrics = app.metrics.registry ? metricsServer(app.metrics.registry, log) : undefined;

  try {
    await listen(rpc, config.port, config.host);
    await listen(rest, config.restPort, config.host);
    if (metrics) await listen(metrics, config.metrics.port, config.host);
  } catch (err) {
    rpc.close();
    rest.close();
    metrics?.close();
    await app.close();
    throw err;
  }
  const port = (rpc.address() as AddressInfo).port;
  const restPort = (rest.address() as AddressInfo).port;
  const metricsPort = metrics ? (metrics.address() as AddressInfo).port : undefined;
  log.info("auth service listening", { host: config.host, port, restPort, metricsPort, store: app.stores.kind, where: app.stores.where });

  let closing: Promise<void> | undefined;
  const close = async () => {
    log.info("shutting down", { graceMs: config.shutdownGraceMs });
    app.health.shutDown();
    draining.abort();
    // The RPC port's close waits for every connection it accepted, HTTP/2 ones too.
    const rpcClosed = new Promise<void>((resolve) => rpc.close(() => resolve()));
    const restClosed = new Promise<void>((resolve) => rest.close(() => resolve()));
    // GOAWAY: clients stop opening streams on these connections; open streams finish.
    for (const session of sessions) session.close();
    rpc.closeIdleConnections();
    rest.closeIdleConnections();
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), config.shutdownGraceMs)));
    const outcome = await Promise.race([Promise.all([rpcClosed, restClosed]), graceOver]);
    clearTimeout(timer);
    if (outcome === "timeout") {
      log.warn("grace period over; cancelling the calls still running");
      shutdown.abort();
      for (const session of sessions) session.destroy();
      rpc.closeAllConnections();
      rest.closeAllConnections();
      await Promise.all([rpcClosed, restClosed]);
    }
    // Last: a scrape during the drain still sees the calls that finished in it.
    if (metrics) {
      metrics.closeAllConnections();
      await new Promise<void>((resolve) => metrics.close(() => resolve()));
    }
    await app.close();
    log.info("shut down");
  };
  return { port, restPort, metricsPort, app, close: () => (closing ??= close()) };
}

/**
 * A request Node's HTTP/1.1 parser refuses (an invalid header character, headers over the
 * limit) gets the Connect protocol's JSON error (the REST twin's shape too), not a bare 400.
 */
function answerClientError({ headerListBytes: headerLimit, requestArrivalSeconds }: Limits): (err: NodeJS.ErrnoException, socket: Duplex) => void {
  return (err, socket) => {
    // A request already answered while its body still came (a 413) gets no second status line:
    // the connection just closes. (Node's own handler writes one once that answer has ended.)
    // Nor one whose answer has begun (a request still arriving while its answer is written).
    const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (!socket.writable || answeredEarly.has(socket) || answering) return void socket.destroy();
    const tooLarge = err.code === "HPE_HEADER_OVERFLOW";
    // A request that did not arrive in time: 408 with the Connect error deadline_exceeded
    // (connect-es reads a bare 408 as UNKNOWN: its status mapping has no 408), or, to a
    // gRPC-Web call whose head had arrived, the same status in a trailers-only answer.
    if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") {
      const message = `the request did not arrive whole within ${requestArrivalSeconds} s`;
      const carried = http1Requests.get(socket);
      // The CORS headers are the policy's own (the origin among those allowed): no CR or LF.
      const cors = Object.entries(carried?.cors ?? {}).map(([name, value]) => `${name}: ${value}\r\n`).join("");
      if (carried?.grpcWebType) {
        return void socket.end(`HTTP/1.1 200 OK\r\ncontent-type: ${carried.grpcWebType}\r\n${cors}grpc-status: 4\r\n`
          + `grpc-message: ${encodeURIComponent(message)}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
      }
      const body = JSON.stringify({ code: "deadline_exceeded", message });
      return void socket.end(`HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n${cors}`
        + `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    }
    // A gRPC-Web client reads grpc-status, not the HTTP status (a bare 431 is UNKNOWN to it):
    // when the bytes Node was parsing as the limit was crossed name gRPC-Web, the same
    // trailers-only answer as over HTTP/2. (Only that read's bytes: a content type in an earlier
    // read of a long head is not seen, and the 431 stands.)
    const grpcWeb = /\r\ncontent-type:[ \t]*(application\/grpc-web[\w+.;= -]*)/i.exec(
      (err as { rawPacket?: Buffer }).rawPacket?.toString("latin1") ?? "",
    );
    if (tooLarge && grpcWeb) {
      const message = encodeURIComponent(`request headers are larger than ${headerLimit} bytes`);
      return void socket.end(`HTTP/1.1 200 OK\r\ncontent-type: ${grpcWeb[1]!.trim()}\r\ngrpc-status: 8\r\n`
        + `grpc-message: ${message}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
    }
    const body = JSON.stringify(tooLarge
      ? { code: "resource_exhausted", message: `request headers are larger than ${headerLimit} bytes` }
      : { code: "invalid_argument", message: "the request is not valid HTTP/1.1" });
    socket.end(`HTTP/1.1 ${tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request"}\r\n`
      + `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  };
}

function listen(server: Http2Server | HttpServer, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}
