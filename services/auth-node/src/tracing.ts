// Traces (OpenTelemetry), exported to Zipkin when AUTH_TRACING_ZIPKIN_ENDPOINT names one.
//
// Every call gets a SERVER span named by its RPC (acme.auth.v1.AuthService/ValidateToken),
// the child of the W3C `traceparent` the caller sent (a missing or malformed one starts a new
// trace), with the gRPC status code as `rpc.grpc.status_code` and ERROR status when it is not
// OK; inside it, spans for the request's validation, the token's verification and the store.
// connect-es has no OpenTelemetry package and Node's HTTP instrumentation makes no spans for
// HTTP/2 servers, so the server span comes from an interceptor (every protocol of the RPC
// port) and from rest.ts (the REST twin).
//
// Spans are handed to a bounded queue (span-export.ts) and exported off the call path: a
// backend that is down or slow costs a call nothing; what cannot be sent is dropped and
// counted. Off (no endpoint), nothing is made and every helper here runs its function bare.
import { AsyncLocalStorage } from "node:async_hooks";
import {
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  trace,
  type Tracer,
} from "@opentelemetry/api";
import { hrTime, W3CTraceContextPropagator } from "@opentelemetry/core";
import { AlwaysOnSampler, ParentBasedSampler, TracerProvider } from "@opentelemetry/sdk-trace";
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import type { Logger } from "./log.js";
import { callRecordKey, codeName, type Metrics, OK, type Protocol } from "./metrics.js";
import { SpanQueue, type SpanQueueLimits } from "./span-export.js";

export interface TracingSettings extends SpanQueueLimits {
  /** Zipkin's span intake (http://host:9411/api/v2/spans); undefined: tracing is off. */
  zipkinEndpoint: string | undefined;
}

/** The name the spans carry as their service (Zipkin's localEndpoint.serviceName). */
export const SERVICE_NAME = "auth-node";

export interface Tracing {
  readonly enabled: boolean;
  /** The server span of every call through the interceptors (empty when off). */
  interceptors(): Interceptor[];
  /** Runs fn as the server span of a call outside the interceptors (the REST twin); codeOf
   * tells the status of what fn throws. */
  serve<T>(
    rpc: RpcName,
    protocol: Protocol,
    traceparent: string | undefined,
    started: number,
    fn: () => Promise<T>,
    codeOf: (err: unknown) => Code,
  ): Promise<T>;
  /** Runs fn inside a child span of the current call's span, if it has one. */
  child<T>(name: string, fn: () => T): T;
  /** Exports what is queued, within the export timeout; then nothing more is exported. */
  close(): Promise<void>;
}

export interface RpcName {
  service: string;
  method: string;
}

export function createTracing(settings: TracingSettings, metrics: Metrics, log: Logger): Tracing {
  return settings.zipkinEndpoint ? new OtelTracing(settings, settings.zipkinEndpoint, metrics, log) : tracingOff;
}

/** Tracing off: nothing is made, every function runs bare. */
export const tracingOff: Tracing = {
  enabled: false,
  interceptors: () => [],
  serve: (_rpc, _protocol, _traceparent, _started, fn) => fn(),
  child: (_name, fn) => fn(),
  close: async () => {},
};

const headersGetter: TextMapGetter<Headers> = {
  keys: (headers) => [...headers.keys()],
  get: (headers, key) => headers.get(key) ?? undefined,
};
const valueGetter: TextMapGetter<string | undefined> = {
  keys: () => ["traceparent"],
  get: (value, key) => (key === "traceparent" ? value : undefined),
};

/** OpenTelemetry's name for the RPC system each protocol is. */
const RPC_SYSTEM: Record<Protocol, string> = { grpc: "grpc", "grpc-web": "grpc", connect: "connect_rpc", rest: "http" };

class OtelTracing implements Tracing {
  readonly enabled = true;
  private readonly provider: TracerProvider;
  private readonly tracer: Tracer;
  private readonly queue: SpanQueue;
  // Only W3C trace context: the one format every client here sends (no baggage, no B3).
  private readonly propagator = new W3CTraceContextPropagator();
  // The span of the call running now, for its children: kept here rather than in a global
  // context manager, so nothing outside this service's own calls is affected.
  private readonly current = new AsyncLocalStorage<Span>();

  constructor(settings: TracingSettings, endpoint: string, metrics: Metrics, log: Logger) {
    this.queue = new SpanQueue(
      endpoint,
      SERVICE_NAME,
      settings,
      (reason, count) => metrics.spansDropped(reason, count),
      (message, fields) => log.warn(message, fields),
    );
    this.provider = new TracerProvider({
      sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
      spanProcessors: [this.queue],
    });
    this.tracer = this.provider.getTracer(SERVICE_NAME);
  }

  interceptors(): Interceptor[] {
    const server: Interceptor = (next) => async (req) => {
      const record = req.contextValues.get(callRecordKey);
      const parent = this.propagator.extract(ROOT_CONTEXT, req.header, headersGetter);
      const span = this.startServer(
        { service: req.service.typeName, method: req.method.name },
        record?.protocol ?? "connect",
        record?.started ?? performance.now(),
        parent,
      );
      let res;
      try {
        res = await this.current.run(span, () => next(req));
      } catch (err) {
        end(span, ConnectError.from(err).code);
        throw err;
      }
      if (!res.stream) {
        end(span, OK);
        return res;
      }
      const messages = res.message;
      async function* traced() {
        try {
          yield* messages;
          end(span, OK);
        } catch (err) {
          end(span, ConnectError.from(err).code);
          throw err;
        }
      }
      return { ...res, message: traced() };
    };
    return [server];
  }

  async serve<T>(
    rpc: RpcName,
    protocol: Protocol,
    traceparent: string | undefined,
    started: number,
    fn: () => Promise<T>,
    codeOf: (err: unknown) => Code,
  ): Promise<T> {
    const parent = this.propagator.extract(ROOT_CONTEXT, traceparent, valueGetter);
    const span = this.startServer(rpc, protocol, started, parent);
    try {
      const result = await this.current.run(span, fn);
      end(span, OK);
      return result;
    } catch (err) {
      end(span, codeOf(err));
      throw err;
    }
  }

  child<T>(name: string, fn: () => T): T {
    const parent = this.current.getStore();
    if (!parent) return fn();
    const span = this.tracer.startSpan(name, { kind: SpanKind.INTERNAL, startTime: hrTime() }, trace.setSpan(ROOT_CONTEXT, parent));
    const fail = (err: unknown) => {
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof ConnectError ? codeName(err.code) : "error" });
      span.end(hrTime());
      throw err;
    };
    let result: T;
    try {
      result = fn();
    } catch (err) {
      return fail(err);
    }
    if (result instanceof Promise) {
      return result.then((value) => {
        span.end(hrTime());
        return value;
      }, fail) as T;
    }
    span.end(hrTime());
    return result;
  }

  private startServer(rpc: RpcName, protocol: Protocol, started: number, parent: Context): Span {
    return this.tracer.startSpan(
      `${rpc.service}/${rpc.method}`,
      {
        kind: SpanKind.SERVER,
        // The call's own start (the transport's first sight of it, a performance.now() value).
        startTime: hrTime(started),
        attributes: { "rpc.system": RPC_SYSTEM[protocol], "rpc.service": rpc.service, "rpc.method": rpc.method, "acme.protocol": protocol },
      },
      parent,
    );
  }

  async close(): Promise<void> {
    await this.provider.shutdown();
  }
}

// Every time is given as the time origin plus performance.now(), one clock for every span.
// Left to itself the SDK takes a span's start (or, when a start is given, its end) from
// Date.now(), whole milliseconds apart from that clock: a validate span could begin up to 1 ms
// before the server span around it.

/** Ends a server span with its gRPC status: the code as an attribute, ERROR when not OK. */
function end(span: Span, code: Code): void {
  span.setAttribute("rpc.grpc.status_code", code);
  if (code !== OK) span.setStatus({ code: SpanStatusCode.ERROR, message: codeName(code) });
  span.end(hrTime());
}
