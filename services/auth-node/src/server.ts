// Start-up: the RPC port (gRPC, gRPC-Web and Connect over cleartext HTTP/2) and the REST
// port (HTTP/1.1), both on the same App, and the graceful shutdown of both.
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer as createHttp2Server, type Http2Server, type ServerHttp2Session } from "node:http2";
import type { AddressInfo } from "node:net";
import { type App, createApp } from "./app.js";
import type { Config } from "./config.js";
import type { Logger } from "./log.js";
import { metricsServer } from "./metrics-server.js";
import { restHandler } from "./rest.js";
import { rpcStreamHandler } from "./rpc-port.js";

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
  // The header list a client may send: advertised in SETTINGS, enforced by rpc-port.ts; the
  // streams a client may open at once on one connection. No request listener: the core
  // stream API only, without the request/response compatibility layer.
  const rpc = createHttp2Server({
    settings: { maxHeaderListSize: config.limits.headerListBytes, maxConcurrentStreams: config.limits.streamsPerConnection },
  });
  rpc.on("stream", rpcStreamHandler(app, {
    limits: config.limits,
    cors: config.cors,
    shutdownSignal: shutdown.signal,
    log,
    grpcUnaryPath: options.grpcUnaryPath,
  }));
  const sessions = new Set<ServerHttp2Session>();
  rpc.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  const rest = createHttpServer(
    { maxHeaderSize: config.limits.headerListBytes },
    restHandler(app, config.limits.restBodyBytes, log.child({ port: "rest" })),
  );
  // A request Node's HTTP parser refuses (an invalid header character, headers over the
  // limit) gets the twin's JSON error too, not a bare 400.
  rest.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = err.code === "HPE_HEADER_OVERFLOW";
    const body = JSON.stringify(tooLarge
      ? { code: "resource_exhausted", message: `request headers are larger than ${config.limits.headerListBytes} bytes` }
      : { code: "invalid_argument", message: "the request is not valid HTTP/1.1" });
    socket.end(`HTTP/1.1 ${tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request"}\r\n`
      + `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });

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
    const rpcClosed = new Promise<void>((resolve) => rpc.close(() => resolve()));
    const restClosed = new Promise<void>((resolve) => rest.close(() => resolve()));
    // GOAWAY: clients stop opening streams on these connections; open streams finish.
    for (const session of sessions) session.close();
    rest.closeIdleConnections();
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), config.shutdownGraceMs)));
    const outcome = await Promise.race([Promise.all([rpcClosed, restClosed]), graceOver]);
    clearTimeout(timer);
    if (outcome === "timeout") {
      log.warn("grace period over; cancelling the calls still running");
      shutdown.abort();
      for (const session of sessions) session.destroy();
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

function listen(server: Http2Server | HttpServer, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}
