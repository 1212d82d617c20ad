// Limits the RPC port enforces on a request stream before any protocol handler sees it, where
// Node and connect-es leave a gap:
//   - the header list: Node advertises SETTINGS_MAX_HEADER_LIST_SIZE but does not enforce it
//     on what it receives (a 40 KB header passed with a 16 KB setting). The size is counted as
//     HTTP/2 counts it: each field's name and value plus 32 octets.
//   - the time a request may take to arrive: connect-es waits for a unary request to end
//     without looking at the call's deadline, so a client that never half-closes held the
//     stream for ever. The stream is reset (RST_STREAM CANCEL, as grpc-java does at a deadline)
//     once the client's deadline or the server's own limit passes with the request incomplete.
import type { IncomingMessage, ServerOptions, ServerResponse } from "node:http";
import { constants, type IncomingHttpHeaders, type ServerHttp2Stream } from "node:http2";
import type { Limits } from "./config.js";

/** Answers and returns true when the request's headers are over the limit. */
export function refuseOversizeHeaders(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, rawHeaders: string[], limit: number): boolean {
  const size = headerListSize(rawHeaders);
  if (size <= limit) return false;
  const message = `request headers are ${size} bytes, more than the limit of ${limit}`;
  const contentType = headers["content-type"] ?? "";
  if (/^application\/grpc/.test(contentType)) {
    // gRPC and gRPC-Web: a trailers-only response, RESOURCE_EXHAUSTED.
    stream.respond({ ":status": 200, "content-type": contentType, "grpc-status": "8", "grpc-message": encodeURIComponent(message) }, { endStream: true });
  } else {
    // Connect and anything else: HTTP 431 with the Connect protocol's error body.
    stream.respond({ ":status": 431, "content-type": "application/json" });
    stream.end(JSON.stringify({ code: "resource_exhausted", message }));
  }
  return true;
}

/** Resets the stream if the request has not arrived whole by its deadline or the server's limit. */
export function limitArrival(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, limits: Limits): void {
  const ms = Math.min(clientTimeoutMs(headers) ?? Infinity, limits.requestArrivalSeconds * 1000);
  const timer = setTimeout(() => {
    if (!stream.readableEnded && !stream.closed) stream.close(constants.NGHTTP2_CANCEL);
  }, ms);
  const done = () => clearTimeout(timer);
  stream.once("end", done);
  stream.once("close", done);
}

/**
 * The same limits on the RPC port's HTTP/1.1 side (and the REST port), where Node's HTTP/1.1 server enforces
 * them: the request head (request line and headers) within the header limit (431 beyond it),
 * and the whole request, head and body, within the arrival limit (408, then the connection
 * closes). Node looks at those timeouts every connectionsCheckingInterval (30 s by default,
 * which would triple a 10 s limit): once a second, and more often for shorter limits. The
 * message limit is connect-es's, as on HTTP/2; an HTTP/1.1 connection carries one request
 * at a time, so there is no count of streams to limit.
 */
export function http1Limits(limits: Limits): ServerOptions {
  const arrivalMs = limits.requestArrivalSeconds * 1000;
  return {
    maxHeaderSize: limits.headerListBytes,
    headersTimeout: arrivalMs,
    requestTimeout: arrivalMs,
    connectionsCheckingInterval: Math.min(1000, arrivalMs / 4),
  };
}

/**
 * HTTP/1.1's form of limitArrival for the call's own deadline: the server's limit is Node's
 * requestTimeout (server.ts); a request still arriving at the deadline closes its connection,
 * which is all HTTP/1.1 has to end one request.
 */
export function limitArrivalHttp1(req: IncomingMessage, headers: IncomingHttpHeaders, limits: Limits): void {
  const ms = clientTimeoutMs(headers);
  if (ms === undefined || ms >= limits.requestArrivalSeconds * 1000 || req.complete) return;
  const timer = setTimeout(() => {
    if (!req.complete) req.socket.destroy();
  }, ms);
  const done = () => clearTimeout(timer);
  req.once("end", done);
  req.once("close", done);
}

function headerListSize(raw: string[]): number {
  let size = 0;
  for (let i = 0; i + 1 < raw.length; i += 2) size += raw[i]!.length + raw[i + 1]!.length + 32;
  return size;
}

const GRPC_TIMEOUT_UNITS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 1e-3, n: 1e-6 };

/** The call's deadline in ms, from grpc-timeout (gRPC, gRPC-Web) or connect-timeout-ms. */
function clientTimeoutMs(headers: IncomingHttpHeaders): number | undefined {
  const grpc = /^(\d{1,8})([HMSmun])$/.exec(String(headers["grpc-timeout"] ?? ""));
  if (grpc) return Number(grpc[1]) * GRPC_TIMEOUT_UNITS[grpc[2]!]!;
  const connect = /^\d{1,10}$/.exec(String(headers["connect-timeout-ms"] ?? ""));
  return connect ? Number(connect[0]) : undefined;
}

/** Connections whose request was answered before its body had arrived (a REST body refused as
 * too large is read on and dropped): cut at the arrival limit, they get no second answer. */
export const answeredEarly = new WeakSet<object>();

/** The request an HTTP/1.1 connection carries now: the CORS headers its answer gets, and for a
 * gRPC-Web call its content type. A request cut at the arrival limit is answered in its
 * protocol's terms (server.ts), gRPC-Web's trailers rather than a 408 its client reads as
 * UNKNOWN, and with those headers, without which a browser on another origin reads nothing of
 * the answer. Until that request's answer is out (answered()). */
export const http1Requests = new WeakMap<object, { req: IncomingMessage; grpcWebType?: string; cors?: Record<string, string> }>();

/**
 * Once an HTTP/1.1 request's answer is out: its connection no longer carries it (unless a
 * pipelined request after it has taken its place), and when the request had not arrived whole
 * (an answer that did not need the body: 404, 403, an error), the connection is answered
 * early, so that a cut at the arrival limit adds no second status line.
 */
export function answered(req: IncomingMessage, res: ServerResponse): void {
  // The connection as the request came: a request answered before its body was read (a message
  // over the limit) has let go of its socket by the time the answer is out.
  const socket = req.socket;
  res.once("finish", () => {
    if (http1Requests.get(socket)?.req === req) http1Requests.delete(socket);
    if (req.complete) return;
    answeredEarly.add(socket);
    req.once("end", () => answeredEarly.delete(socket));
  });
}
