// The RPC port: gRPC, gRPC-Web and Connect on one cleartext listener (rpc-listener.ts), over
// HTTP/2 served from Node's core stream API and over HTTP/1.1 (browsers). Each HTTP/2 request
// stream passes the transport limits, then goes to the unary gRPC path (grpc-unary.ts) when it
// is a binary gRPC call of a unary method, and to connect-es's handler for its path otherwise
// (http2-universal.ts). An HTTP/1.1 request passes the same CORS policy and goes to the same
// handler (http1-universal.ts); its limits are Node's HTTP/1.1 server's (server.ts). All run
// the same routes, the same interceptors and the same message limit.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { IncomingHttpHeaders, ServerHttp2Stream } from "node:http2";
import {
  Code,
  type ConnectRouter,
  createConnectRouter,
  createContextValues,
  createServiceImplSpec,
} from "@connectrpc/connect";
import type { UniversalHandler } from "@connectrpc/connect/protocol";
import { compressionBrotli, compressionGzip } from "@connectrpc/connect-node";
import type { App } from "./app.js";
import type { Limits } from "./config.js";
import { clientAddressKey } from "./context.js";
import { corsPolicy, type CorsSettings } from "./cors.js";
import { type GrpcUnaryOptions, isGrpcBinary, serveGrpcUnary, type UnaryMethod, type UnarySpec } from "./grpc-unary.js";
import { unaryInvoker } from "./unary-invoke.js";
import { serveHttp1 } from "./http1-universal.js";
import { serveUniversal } from "./http2-universal.js";
import type { Logger } from "./log.js";
import { callRecordKey, type Protocol } from "./metrics.js";
import { answered, http1Requests, limitArrival, limitArrivalHttp1, refuseOversizeHeaders } from "./transport-limits.js";

export type StreamHandler = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, flags: number, rawHeaders: string[]) => void;
export type Http1Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface RpcPortOptions {
  limits: Limits;
  cors: CorsSettings;
  shutdownSignal: AbortSignal;
  log: Logger;
  /** Off: every call through connect-es's own handlers (tests compare the two). */
  grpcUnaryPath?: boolean;
  /** Aborted when the server starts to drain: HTTP/1.1 answers then close their connection. */
  drainSignal?: AbortSignal;
}

export interface RpcPort {
  /** HTTP/2 request streams. */
  stream: StreamHandler;
  /** HTTP/1.1 requests. */
  http1: Http1Handler;
}

/** connect-es's default: smaller answers are not worth compressing. */
const COMPRESS_MIN_BYTES = 1024;

export function rpcStreamHandler(app: App, options: RpcPortOptions): StreamHandler {
  return rpcPort(app, options).stream;
}

export function rpcPort(app: App, options: RpcPortOptions): RpcPort {
  const { limits, log } = options;
  const draining = options.drainSignal ?? new AbortController().signal;
  const acceptCompression = [compressionGzip, compressionBrotli];
  const router = createConnectRouter({
    interceptors: app.interceptors,
    requestGate: app.requestGate,
    // Per message, after decompression too: a small compressed message cannot inflate past it.
    readMaxBytes: limits.messageBytes,
    acceptCompression,
    shutdownSignal: options.shutdownSignal,
  });
  const specs = new Map<string, UnarySpec>();
  app.routes(recordingUnary(router, specs));
  const unary = new Map<string, UnaryMethod>(
    [...specs].map(([path, spec]) => [path, { spec, invoke: unaryInvoker(spec, app.callInterceptors) }]),
  );
  const handlers = new Map<string, UniversalHandler>(router.handlers.map((h) => [h.requestPath, h]));
  const grpcUnary: GrpcUnaryOptions = {
    readMaxBytes: limits.messageBytes,
    acceptCompression,
    compressMinBytes: COMPRESS_MIN_BYTES,
    log,
    metrics: app.metrics,
  };
  const fast = options.grpcUnaryPath ?? true;
  const cors = corsPolicy(options.cors);

  const stream: StreamHandler = (stream, headers, _flags, rawHeaders) => {
    // A client's reset surfaces as "close" (with its code), which the paths handle; an
    // "error" without a listener would take the process down.
    stream.on("error", ignore);
    if (refuseOversizeHeaders(stream, headers, rawHeaders, limits.headerListBytes)) return;
    limitArrival(stream, headers, limits);
    const path = headers[":path"] ?? "";
    const query = path.indexOf("?");
    const pathname = query < 0 ? path : path.slice(0, query);
    const handler = handlers.get(pathname);
    const crossOrigin = cors(headers);
    if (crossOrigin.kind === "refuse") {
      log.debug("cross-origin request refused", { origin: headers.origin, path: pathname, reason: crossOrigin.reason });
      return void stream.respond({ ":status": 403 }, { endStream: true });
    }
    if (!handler) return void stream.respond({ ":status": 404 }, { endStream: true });
    // connect-es builds the call's URL on :authority (HTTP/2 lets a request leave it out) and
    // fails the call unanswered when it names no authority.
    if (!namesAnAuthority(headers[":authority"] ?? "localhost", path)) return void stream.respond({ ":status": 400 }, { endStream: true });
    if (crossOrigin.kind === "preflight") return void stream.respond({ ":status": 204, ...crossOrigin.headers }, { endStream: true });
    const extra = crossOrigin.kind === "allow" ? crossOrigin.headers : undefined;
    const spec = fast ? unary.get(pathname) : undefined;
    const direct = spec !== undefined && isGrpcBinary(headers);
    const record = app.metrics.start(handler.service.typeName, handler.method.name, direct ? "grpc" : protocolOf(headers));
    const values = createContextValues()
      .set(clientAddressKey, stream.session?.socket?.remoteAddress ?? "unknown")
      .set(callRecordKey, record);
    if (direct) return serveGrpcUnary(spec, stream, headers, values, grpcUnary, extra);
    serveUniversal(handler, stream, headers, values, log, app.metrics, extra);
  };

  const http1: Http1Handler = (req, res) => {
    // The CORS policy and the protocol reading take HTTP/2's form of the request line.
    const headers: IncomingHttpHeaders = { ...req.headers, ":method": req.method ?? "" };
    limitArrivalHttp1(req, headers, limits);
    // The request this connection carries, until its answer is out (a gRPC-Web type is written
    // back as sent only when it is plainly one: it goes into a raw answer).
    const carried: { req: IncomingMessage; grpcWebType?: string; cors?: Record<string, string> } = { req };
    if (protocolOf(headers) === "grpc-web") {
      carried.grpcWebType = /^application\/grpc-web[\w+.;= -]*$/.exec(headers["content-type"]!)?.[0] ?? "application/grpc-web+proto";
    }
    http1Requests.set(req.socket, carried);
    answered(req, res);
    const url = req.url ?? "";
    const query = url.indexOf("?");
    const pathname = query < 0 ? url : url.slice(0, query);
    const handler = handlers.get(pathname);
    const crossOrigin = cors(headers);
    if (crossOrigin.kind === "refuse") {
      log.debug("cross-origin request refused", { origin: headers.origin, path: pathname, reason: crossOrigin.reason });
      return void res.writeHead(403).end();
    }
    if (!handler) return void res.writeHead(404).end();
    // connect-es builds the call's URL on Host and throws outside any call when it cannot, which
    // would end the process: when Host is missing (HTTP/1.0 makes it optional, and a balancer
    // passes such a request on) or names no authority ("a b", a port past 65535).
    if (!namesAnAuthority(req.headers.host, url)) return void res.writeHead(400, { connection: "close" }).end();
    if (crossOrigin.kind === "preflight") return void res.writeHead(204, crossOrigin.headers).end();
    const extra = crossOrigin.kind === "allow" ? crossOrigin.headers : undefined;
    carried.cors = extra;
    const protocol = protocolOf(headers);
    const record = app.metrics.start(handler.service.typeName, handler.method.name, protocol);
    if (protocol === "grpc") {
      // gRPC ends every call with HTTP/2 trailers, which HTTP/1.1 cannot be relied on to carry
      // (connect-es would answer, and the status would be lost): refused before it runs.
      app.metrics.finish(record, Code.Unimplemented);
      return void res.writeHead(505, {
        ...extra,
        "content-type": headers["content-type"],
        "grpc-status": String(Code.Unimplemented),
        "grpc-message": encodeURIComponent("gRPC needs HTTP/2; this port serves Connect and gRPC-Web over HTTP/1.1"),
        connection: "close",
      }).end();
    }
    const values = createContextValues()
      .set(clientAddressKey, req.socket.remoteAddress ?? "unknown")
      .set(callRecordKey, record);
    serveHttp1(handler, req, res, values, log, app.metrics, extra, draining);
  };

  return { stream, http1 };
}

/** Whether connect-es can build a call's URL from its authority (Host, :authority) and path. */
function namesAnAuthority(host: string | undefined, target: string): boolean {
  return host !== undefined && host !== "" && URL.canParse(target, `http://${host}`);
}

/** A router that registers with connect-es's and keeps each unary method's implementation. */
function recordingUnary(router: ConnectRouter, unary: Map<string, UnarySpec>): ConnectRouter {
  const recording: ConnectRouter = {
    get handlers() {
      return router.handlers;
    },
    service(service, implementation, options) {
      router.service(service, implementation, options);
      // Interceptors of one service's own would be connect-es's to run: leave those to it.
      if (!options?.interceptors?.length) {
        for (const spec of Object.values(createServiceImplSpec(service, implementation).methods)) {
          if (spec.kind === "unary") unary.set(`/${service.typeName}/${spec.method.name}`, spec as UnarySpec);
        }
      }
      return recording;
    },
    rpc(method, implementation, options) {
      router.rpc(method, implementation, options);
      return recording;
    },
  };
  return recording;
}

/** Which of connect-es's protocols a request speaks, by its media type. */
function protocolOf(headers: IncomingHttpHeaders): Protocol {
  const type = headers["content-type"] ?? "";
  if (type.startsWith("application/grpc-web")) return "grpc-web";
  if (type.startsWith("application/grpc")) return "grpc";
  return "connect";
}

function ignore(): void {}
