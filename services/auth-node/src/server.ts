// Start-up: the RPC port (gRPC, gRPC-Web and Connect over cleartext HTTP/2) and the REST
// port (HTTP/1.1), both on the same App, and the graceful shutdown of both.
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer as createHttp2Server, type Http2Server, type ServerHttp2Session } from "node:http2";
import type { AddressInfo } from "node:net";
import { createContextValues } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { type App, createApp } from "./app.js";
import type { Config } from "./config.js";
import { clientAddressKey } from "./context.js";
import type { Logger } from "./log.js";
import { transportLimits } from "./transport-limits.js";
import { restHandler } from "./rest.js";

export interface RunningServer {
  port: number;
  restPort: number;
  app: App;
  /** Graceful: refuse new calls, let calls in flight finish (up to the grace period), then close. */
  close(): Promise<void>;
}

export async function startServer(config: Config, log: Logger): Promise<RunningServer> {
  const app = await createApp(config, log);
  const shutdown = new AbortController();
  const rpc = createHttp2Server(
    // The header list a client may send: advertised in SETTINGS, enforced by transportLimits;
    // the streams a client may open at once on one connection.
    { settings: { maxHeaderListSize: config.limits.headerListBytes, maxConcurrentStreams: config.limits.streamsPerConnection } },
    transportLimits(config.limits, connectNodeAdapter({
      routes: app.routes,
      interceptors: app.interceptors,
      requestGate: app.requestGate,
      // Per message, after decompression too: a small compressed message cannot inflate past it.
      readMaxBytes: config.limits.messageBytes,
      shutdownSignal: shutdown.signal,
      contextValues: (req) => createContextValues().set(clientAddressKey, req.socket.remoteAddress ?? "unknown"),
    })),
  );
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

  try {
    await listen(rpc, config.port, config.host);
    await listen(rest, config.restPort, config.host);
  } catch (err) {
    rpc.close();
    rest.close();
    app.close();
    throw err;
  }
  const port = (rpc.address() as AddressInfo).port;
  const restPort = (rest.address() as AddressInfo).port;
  log.info("auth service listening", { host: config.host, port, restPort, dataDir: config.dataDir });

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
    app.close();
    log.info("shut down");
  };
  return { port, restPort, app, close: () => (closing ??= close()) };
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
