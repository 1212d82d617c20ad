// A unary call's interceptors and implementation, as connect-es's invokeUnaryImplementation
// runs them — the same requests, responses and HandlerContext — with two costs of its taken
// out of every call: the interceptor chain is composed once per method (connect-es composes it
// per call, a closure per interceptor each time), and the request's headers become a fetch
// Headers only if something reads them (ValidateToken never does: the token is in the message).
import type { IncomingHttpHeaders } from "node:http2";
import { create, type DescMessage, isMessage } from "@bufbuild/protobuf";
import {
  type ContextValues,
  createContextKey,
  type HandlerContext,
  type Interceptor,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import { webHeaders } from "./http2-universal.js";
import type { UnarySpec } from "./grpc-unary.js";

/** One call's context: what the implementation gets, its request headers read when asked for. */
export class CallContext implements HandlerContext {
  readonly requestMethod = "POST";
  private header: Headers | undefined;

  constructor(
    readonly method: UnarySpec["method"],
    readonly protocolName: string,
    readonly url: string,
    readonly signal: AbortSignal,
    readonly timeoutMs: () => number | undefined,
    private readonly raw: IncomingHttpHeaders,
    readonly responseHeader: Headers,
    readonly responseTrailer: Headers,
    readonly values: ContextValues,
  ) {}

  get service() {
    return this.method.parent;
  }

  get requestHeader(): Headers {
    return (this.header ??= webHeaders(this.raw));
  }

  /** The request the interceptors see: its header is this context's, read when asked for. */
  request(message: unknown): UnaryRequest {
    const context = this;
    const request = {
      stream: false as const,
      service: this.method.parent,
      method: this.method,
      requestMethod: this.requestMethod,
      url: this.url,
      signal: this.signal,
      contextValues: this.values,
      message,
      get header() {
        return context.requestHeader;
      },
    };
    this.values.set(callContextKey, { context: this, request });
    return request as unknown as UnaryRequest;
  }
}

const callContextKey = createContextKey<{ context: CallContext; request: object } | undefined>(undefined, {
  description: "the call's own context",
});

export type Invoke = (context: CallContext, message: unknown) => Promise<unknown>;

/** The method's interceptors around its implementation, composed once. */
export function unaryInvoker(spec: UnarySpec, interceptors: Interceptor[]): Invoke {
  const output = spec.method.output;
  const implementation: (req: UnaryRequest) => Promise<UnaryResponse> = async (req) => {
    const own = req.contextValues.get(callContextKey)!;
    // What connect-es does (mergeRequest): an interceptor may have passed on another request.
    const base = own.context;
    const context: HandlerContext =
      req === own.request
        ? base
        : {
            method: base.method,
            service: req.service,
            requestMethod: base.requestMethod,
            protocolName: base.protocolName,
            url: base.url,
            timeoutMs: base.timeoutMs,
            responseHeader: base.responseHeader,
            responseTrailer: base.responseTrailer,
            requestHeader: req.header,
            signal: req.signal,
            values: req.contextValues,
          };
    const message = normalize(output, await spec.impl(req.message as never, context));
    return {
      stream: false,
      service: spec.method.parent,
      method: spec.method,
      header: own.context.responseHeader,
      trailer: own.context.responseTrailer,
      message,
    } as UnaryResponse;
  };
  const chain = interceptors.reduceRight<(req: UnaryRequest) => Promise<UnaryResponse>>(
    (next, interceptor) => interceptor(next as never) as never,
    implementation,
  );
  return async (context, message) => {
    const res = await chain(context.request(message));
    copyHeaders(res.header, context.responseHeader);
    copyHeaders(res.trailer, context.responseTrailer);
    return res.message;
  };
}

function normalize(output: DescMessage, message: unknown): unknown {
  return isMessage(message, output) ? message : create(output, message as never);
}

/** As connect-es: an interceptor that answered with other Headers replaces the call's. */
function copyHeaders(from: Headers, to: Headers): void {
  if (from === to) return;
  for (const key of [...to.keys()]) to.delete(key);
  from.forEach((value, key) => to.set(key, value));
}
