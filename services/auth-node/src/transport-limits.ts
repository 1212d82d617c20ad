// Limits the RPC port enforces on a request before any protocol handler sees it, where
// Node and connect-es leave a gap:
//   - the header list: Node advertises SETTINGS_MAX_HEADER_LIST_SIZE but does not enforce it
//     on what it receives (a 40 KB header passed with a 16 KB setting). The size is counted as
//     HTTP/2 counts it: each field's name and value plus 32 octets.
//   - the time a request may take to arrive: connect-es waits for a unary request to end
//     without looking at the call's deadline, so a client that never half-closes held the
//     stream for ever. The stream is reset (RST_STREAM CANCEL, as grpc-java does at a deadline)
//     once the client's deadline or the server's own limit passes with the request incomplete.
import { constants, type Http2ServerRequest, type Http2ServerResponse } from "node:http2";
import type { Limits } from "./config.js";

type Handler = (req: Http2ServerRequest, res: Http2ServerResponse) => void;

export function transportLimits(limits: Limits, handler: Handler): Handler {
  return (req, res) => {
    const size = headerListSize(req.rawHeaders);
    if (size > limits.headerListBytes) return refuseHeaders(req, res, size, limits.headerListBytes);
    const ms = Math.min(clientTimeoutMs(req.headers) ?? Infinity, limits.requestArrivalSeconds * 1000);
    const timer = setTimeout(() => {
      if (!req.readableEnded && !req.stream.closed) req.stream.close(constants.NGHTTP2_CANCEL);
    }, ms);
    const done = () => clearTimeout(timer);
    req.once("end", done);
    req.stream.once("close", done);
    handler(req, res);
  };
}

function refuseHeaders(req: Http2ServerRequest, res: Http2ServerResponse, size: number, limit: number): void {
  const message = `request headers are ${size} bytes, more than the limit of ${limit}`;
  if (/^application\/grpc/.test(req.headers["content-type"] ?? "")) {
    // gRPC and gRPC-Web: a trailers-only response, RESOURCE_EXHAUSTED.
    res.writeHead(200, { "content-type": req.headers["content-type"]!, "grpc-status": "8", "grpc-message": encodeURIComponent(message) });
    res.end();
  } else {
    // Connect and anything else: HTTP 431 with the Connect protocol's error body.
    res.writeHead(431, { "content-type": "application/json" });
    res.end(JSON.stringify({ code: "resource_exhausted", message }));
  }
}

function headerListSize(raw: string[]): number {
  let size = 0;
  for (let i = 0; i + 1 < raw.length; i += 2) size += raw[i]!.length + raw[i + 1]!.length + 32;
  return size;
}

const GRPC_TIMEOUT_UNITS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 1e-3, n: 1e-6 };

/** The call's deadline in ms, from grpc-timeout (gRPC, gRPC-Web) or connect-timeout-ms. */
function clientTimeoutMs(headers: Http2ServerRequest["headers"]): number | undefined {
  const grpc = /^(\d{1,8})([HMSmun])$/.exec(String(headers["grpc-timeout"] ?? ""));
  if (grpc) return Number(grpc[1]) * GRPC_TIMEOUT_UNITS[grpc[2]!]!;
  const connect = /^\d{1,10}$/.exec(String(headers["connect-timeout-ms"] ?? ""));
  return connect ? Number(connect[0]) : undefined;
}
