// retry.ts — the contracts' retry policy for Connect clients. gen/service-config.json is the
// one definition every SDK ships (grpc-java and grpcio apply it natively as a gRPC service
// config); connect-es has no service-config retries, so this interceptor applies the same
// policy: the methods it names, its attempts, its backoff, and only its retryable codes
// (UNAVAILABLE: the call may not have reached a server, or its server went away mid-call;
// INTERNAL: among others, a stream cut before its status arrived — a balancer whose replica
// died mid-answer ends the call without trailers, "missing status" — so the outcome is unknown
// too; a genuine server fault costs only the attempts).
//
// Only idempotent RPCs are retried, because a retry of a call whose outcome is unknown may run
// it twice. The config names the reads and DisableUser (disabling twice changes nothing).
// RegisterPerson is idempotent only on its request_id ("a retry with the same request_id
// stores the person once"), which a native gRPC retry policy cannot look at: so it is not in
// the config, and this interceptor retries a unary call the config does not name only when its
// request has a non-empty request_id field. Streams (ListPeople, RegisterPeople, SyncPeople) are
// not retried here: their messages cannot be sent again once the call has consumed them.
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import serviceConfigJson from "./service-config.json" with { type: "json" };

/** The gRPC service config (gen/service-config.json), as gRPC libraries take it. */
export const serviceConfig: ServiceConfig = serviceConfigJson;

export interface ServiceConfig {
  methodConfig: {
    name: { service: string; method?: string }[];
    retryPolicy: {
      maxAttempts: number;
      initialBackoff: string;
      maxBackoff: string;
      backoffMultiplier: number;
      retryableStatusCodes: string[];
    };
  }[];
}

/** A retry policy in this interceptor's terms. */
export interface RetryPolicy {
  maxAttempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  backoffMultiplier: number;
  retryableCodes: ReadonlySet<Code>;
}

/** "0.1s" (the proto3 JSON form of a Duration) in milliseconds. */
function durationMs(duration: string): number {
  const match = /^(\d+(?:\.\d+)?)s$/.exec(duration);
  if (!match) throw new Error(`service config: "${duration}" is not a duration like "0.1s"`);
  return Number(match[1]) * 1000;
}

/** "UNAVAILABLE" as Connect's Code. */
function codeOf(name: string): Code {
  const camel = name.toLowerCase().replace(/(?:^|_)([a-z])/g, (_, c: string) => c.toUpperCase());
  const code = (Code as unknown as Record<string, Code | undefined>)[camel];
  if (code === undefined) throw new Error(`service config: unknown status code ${name}`);
  return code;
}

function policyOf(config: ServiceConfig["methodConfig"][number]): RetryPolicy {
  const p = config.retryPolicy;
  return {
    maxAttempts: p.maxAttempts,
    initialBackoffMs: durationMs(p.initialBackoff),
    maxBackoffMs: durationMs(p.maxBackoff),
    backoffMultiplier: p.backoffMultiplier,
    retryableCodes: new Set(p.retryableStatusCodes.map(codeOf)),
  };
}

const policies = serviceConfig.methodConfig.map((config) => ({ names: config.name, policy: policyOf(config) }));
if (policies.length !== 1) throw new Error("service config: one methodConfig expected (the request_id RPCs take its policy)");

/** The policy the config gives service/method ("acme.auth.v1.AuthService", "ValidateToken"). */
export function configuredPolicy(service: string, method: string): RetryPolicy | undefined {
  return policies.find(({ names }) => names.some((n) => n.service === service && (n.method ?? method) === method))?.policy;
}

/** Calls idempotent on their request_id take the policy of the config's reads. */
const requestIdPolicy = policies[0].policy;

/** Whether a request message has a request_id field, set. */
function hasRequestId(method: { input: { fields: readonly { name: string; localName: string }[] } }, message: unknown): boolean {
  const field = method.input.fields.find((f) => f.name === "request_id");
  const value = field && (message as Record<string, unknown>)[field.localName];
  return typeof value === "string" && value !== "";
}

/**
 * Retries unary calls by the contracts' policy: those the service config names, and those whose
 * request carries a request_id. A retry waits a random time up to the current backoff (gRPC's
 * jittered exponential backoff) and is never started after the call's deadline or cancellation.
 * Put it first in `interceptors`, before refusedStreamInterceptor(), so it sees the codes gRPC
 * would give: `interceptors: [retryInterceptor(), refusedStreamInterceptor()]`.
 */
export function retryInterceptor(): Interceptor {
  return (next) => async (req) => {
    if (req.stream) return next(req);
    const policy =
      configuredPolicy(req.service.typeName, req.method.name) ??
      (hasRequestId(req.method, req.message) ? requestIdPolicy : undefined);
    if (!policy) return next(req);
    let backoffMs = policy.initialBackoffMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await next(req);
      } catch (e) {
        const code = ConnectError.from(e).code;
        if (attempt >= policy.maxAttempts || !policy.retryableCodes.has(code) || req.signal.aborted) throw e;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * backoffMs));
        if (req.signal.aborted) throw e;
        backoffMs = Math.min(backoffMs * policy.backoffMultiplier, policy.maxBackoffMs);
      }
    }
  };
}

/**
 * Reports an HTTP/2 RST_STREAM with REFUSED_STREAM as UNAVAILABLE, which is what gRPC's HTTP/2
 * mapping says it is. A balancer sends it for a call in flight to a replica that went away
 * before answering (HAProxy: "nothing was sent for this stream, so reset with REFUSED_STREAM to
 * let the client retry"). @connectrpc/connect-node maps that code to UNAVAILABLE itself, but
 * only when the stream's "close" event comes first; Node emits "error" first
 * (ERR_HTTP2_STREAM_ERROR), and connect-node turns that into INTERNAL. Other errors pass as they are.
 */
export function refusedStreamInterceptor(): Interceptor {
  return (next) => async (req) => {
    try {
      const res = await next(req);
      if (!res.stream) return res;
      return { ...res, message: refusedAsUnavailable(res.message) };
    } catch (e) {
      throw refusedStreamAsUnavailable(e);
    }
  };
}

async function* refusedAsUnavailable<T>(messages: AsyncIterable<T>): AsyncIterable<T> {
  try {
    yield* messages;
  } catch (e) {
    throw refusedStreamAsUnavailable(e);
  }
}

/** e as UNAVAILABLE when it is INTERNAL only because its HTTP/2 stream was refused. */
export function refusedStreamAsUnavailable(e: unknown): unknown {
  const err = ConnectError.from(e);
  if (err.code !== Code.Internal) return e;
  for (let cause: unknown = err.cause; cause instanceof Error; cause = cause.cause) {
    if ((cause as { code?: unknown }).code === "ERR_HTTP2_STREAM_ERROR" && cause.message.endsWith("NGHTTP2_REFUSED_STREAM")) {
      return new ConnectError("http/2 stream closed with error code REFUSED_STREAM (0x7)", Code.Unavailable, err.metadata, undefined, e);
    }
  }
  return e;
}
