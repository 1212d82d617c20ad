// How many connections a port holds, and how long an HTTP/2 connection may hold one while it
// carries no call. Without either, every connection a client opened stayed open as long as the
// client kept it: enough of them exhausted the process's file descriptors and memory, and the
// service with them. grpc-java and Node leave both unlimited by default; an operator who knows
// the fleet of callers sets them from it (README, Limits).
//   - A port's connections at once (Node's maxConnections, counted from accept to close, over
//     the RPC port's HTTP/1.1 and HTTP/2 alike: its HTTP/1.1 server accepts them all): past it a
//     new connection is closed at once. A gRPC client sees UNAVAILABLE and reconnects with
//     backoff; the connections already open are untouched.
//   - An HTTP/2 connection with no stream open for the idle time is sent GOAWAY and ends, as
//     grpc-java's maxConnectionIdle does; a client opens a new one for its next call. Frames
//     that are not calls (PING, SETTINGS) do not keep it: only streams do. HTTP/1.1 connections
//     are Node's keep-alive's (closed after 5 s idle).
import type { Server } from "node:net";
import type { ServerHttp2Session } from "node:http2";
import type { Logger } from "./log.js";
import type { Metrics } from "./metrics.js";

/** Refused connections are logged at most this often (a flood of them would flood the log). */
const LOG_EVERY_MS = 10_000;

/** Closes connections past max as they are accepted; each is counted, and logged: the first at
 * once, those within logEveryMs after a log line together when it has passed. The connections
 * open are reported to the metrics too. */
export function limitConnections(server: Server, max: number, port: string, log: Logger, metrics: Metrics, logEveryMs = LOG_EVERY_MS): void {
  server.maxConnections = max;
  metrics.watchConnections(port, server);
  let unlogged = 0;
  let lastLog = -Infinity;
  let pending: NodeJS.Timeout | undefined;
  const report = () => {
    pending = undefined;
    log.warn("connections refused: the port holds as many as its limit", { port, limit: max, refused: unlogged });
    unlogged = 0;
    lastLog = performance.now();
  };
  server.on("drop", () => {
    metrics.connectionRefused(port);
    unlogged++;
    if (pending) return;
    const since = performance.now() - lastLog;
    if (since >= logEveryMs) report();
    else pending = setTimeout(report, logEveryMs - since).unref();
  });
  server.once("close", () => clearTimeout(pending));
}

/** Sends the session GOAWAY once it has had no stream open for idleMs (0: never). */
export function closeWhenIdle(session: ServerHttp2Session, idleMs: number): void {
  if (idleMs <= 0) return;
  let open = 0;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    timer = setTimeout(() => session.close(), idleMs);
  };
  session.on("stream", (stream) => {
    open++;
    clearTimeout(timer);
    stream.once("close", () => {
      if (--open === 0 && !session.closed && !session.destroyed) arm();
    });
  });
  session.once("close", () => clearTimeout(timer));
  arm();
}
