// The RPC port: gRPC, gRPC-Web and Connect on one cleartext HTTP/2 listener, served from
// Node's core stream API. Each request stream passes the transport limits, then goes to the
// unary gRPC path (grpc-unary.ts) when it is a binary gRPC call of a unary method, and to
// connect-es's handler for its path otherwise (http2-universal.ts). Both run the same routes,
// the same interceptors and the same limits.
import type { IncomingHttpHeaders, ServerHttp2Stream } from "node:http2";
import {
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
import { serveUniversal } from "./http2-universal.js";
import type { Logger } from "./log.js";
import { callRecordKey, type Protocol } from "./metrics.js";
import { limitArrival, refuseOversizeHeaders } from "./transport-limits.js";

export type StreamHandler = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, flags: number, rawHeaders: string[]) => void;

export interface RpcPortOptions {
  limits: Limits;
  cors: CorsSettings;
  shutdownSignal: AbortSignal;
  log: Logger;
  /** Off: every call through connect-es's own handlers (tests compare the two). */
  grpcUnaryPath?: boolean;
}

/** connect-es's default: smaller answers are not worth compressing. */
const COMPRESS_MIN_BYTES = 1024;

export function rpcStreamHandler(app: App, options: RpcPortOptions): StreamHandler {
  const { limits, log } = options;
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

  return (stream, headers, _flags, rawHeaders) => {
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
