// Prometheus metrics (prom-client), served at /metrics on a port of their own
// (AUTH_METRICS_PORT), which a deployment keeps inside its network.
//
//   rpc_server_requests_total{rpc_service, rpc_method, protocol, grpc_status_code}
//   rpc_server_duration_seconds{rpc_service, rpc_method, protocol, grpc_status_code}  histogram
//       every call on every protocol (grpc, grpc-web, connect, rest), from the moment the
//       transport has the request to the moment the answer is handed back to it; the labels are
//       person-spring's grpc_server_seconds's (rpc_service, rpc_method, grpc_status_code), plus
//       the protocol.
//   auth_call_phase_seconds{method, protocol, phase}  histogram
//       where a call's time goes, as person-spring's person_call_phase_seconds{method, phase}:
//       decode, validate, handle, encode. decode and encode are this service's own work on the
//       gRPC path and the REST twin; connect-es does them itself for gRPC-Web and Connect, so
//       those two have validate and handle only.
//   auth_login_attempts_total{outcome}  success, failed (the reason stays in the log: a
//       count per reason would tell whoever reads it which usernames exist), throttled (refused
//       unchecked: a limit of failures reached), busy (refused unchecked before a limit was
//       reached: too many attempts at once on one user or address; login-limiter.ts)
//   auth_token_validations_total{outcome}  valid, expired, invalid, user_unknown, user_disabled
//   auth_trace_spans_dropped_total{reason}  spans never exported (tracing.ts): queue_full (the
//       bounded queue was full), export_failed (the backend refused, was down or too slow)
//   auth_connections_open{port}  connections a port (rpc, rest) holds now, against
//       AUTH_MAX_CONNECTIONS
//   auth_connections_refused_total{port}  connections closed as they were accepted because the
//       port (rpc, rest) held as many as AUTH_MAX_CONNECTIONS (connection-limits.ts)
//   nodejs_*, process_*  prom-client's runtime metrics: event-loop lag, GC, heap, handles
//
// Every call's record (a CallRecord in the call's context values) is opened by the transport,
// filled by whoever learns the outcome (an interceptor, or the transport when decoding failed)
// and closed by the transport once the answer is out.
import { Code, ConnectError, createContextKey, type Interceptor } from "@connectrpc/connect";
import type { Server } from "node:net";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { DropReason } from "./span-export.js";

export type Protocol = "grpc" | "grpc-web" | "connect" | "rest";
export type Phase = "decode" | "validate" | "handle" | "encode";
export type LoginOutcome = "success" | "failed" | "throttled" | "busy";
export type TokenOutcome = "valid" | "expired" | "invalid" | "user_unknown" | "user_disabled";

/** One call, from the transport's first sight of it to its answer. */
export interface CallRecord {
  readonly service: string;
  readonly method: string;
  readonly protocol: Protocol;
  readonly started: number;
  /** The status, once known (undefined: the transport decides from what it sent). */
  code: Code | undefined;
}

export const callRecordKey = createContextKey<CallRecord | undefined>(undefined, { description: "metrics call record" });

export interface Metrics {
  readonly enabled: boolean;
  /** The registry to serve, when enabled. */
  readonly registry: Registry | undefined;
  start(service: string, method: string, protocol: Protocol): CallRecord | undefined;
  finish(record: CallRecord | undefined, fallback?: Code): void;
  phase(record: CallRecord | undefined, phase: Phase, since: number): void;
  login(outcome: LoginOutcome): void;
  token(outcome: TokenOutcome): void;
  spansDropped(reason: DropReason, count: number): void;
  connectionRefused(port: string): void;
  /** Reports the connections the server holds, on every scrape, as the port's. */
  watchConnections(port: string, server: Server): void;
  /** For calls through interceptors: records OK or the error's code (outside the error boundary). */
  outcome(): Interceptor[];
  /** validation, with the interceptors around it that time validate and handle. */
  phased(validation: Interceptor): Interceptor[];
}

/** gRPC's names of the codes (OK, INVALID_ARGUMENT, …), as grpc-java and person-spring label them. */
const CODE_NAMES: Record<number, string> = {
  0: "OK", 1: "CANCELLED", 2: "UNKNOWN", 3: "INVALID_ARGUMENT", 4: "DEADLINE_EXCEEDED", 5: "NOT_FOUND",
  6: "ALREADY_EXISTS", 7: "PERMISSION_DENIED", 8: "RESOURCE_EXHAUSTED", 9: "FAILED_PRECONDITION",
  10: "ABORTED", 11: "OUT_OF_RANGE", 12: "UNIMPLEMENTED", 13: "INTERNAL", 14: "UNAVAILABLE",
  15: "DATA_LOSS", 16: "UNAUTHENTICATED",
};
/** gRPC's name of a code (OK, UNAUTHENTICATED, …). */
export function codeName(code: Code): string {
  return CODE_NAMES[code] ?? String(code);
}

/** gRPC's OK, which connect-es's Code (errors only) has no member for. */
export const OK = 0 as Code;

// Seconds. A ValidateToken takes a fraction of a millisecond, a Login the ~50 ms of its hash.
const CALL_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const PHASE_BUCKETS = [0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.01, 0.1, 1];

export function createMetrics(enabled: boolean): Metrics {
  return enabled ? new PrometheusMetrics() : disabled;
}

const disabled: Metrics = {
  enabled: false,
  registry: undefined,
  // The record still travels with the call: the access log reads it.
  start: (service, method, protocol) => ({ service, method, protocol, started: performance.now(), code: undefined }),
  finish: () => {},
  phase: () => {},
  login: () => {},
  token: () => {},
  spansDropped: () => {},
  connectionRefused: () => {},
  watchConnections: () => {},
  outcome: () => [],
  phased: (validation) => [validation],
};

type Observer = { observe(value: number): void };
type Incrementer = { inc(): void };

class PrometheusMetrics implements Metrics {
  readonly enabled = true;
  readonly registry = new Registry();
  private readonly requests: Counter;
  private readonly duration: Histogram;
  private readonly phases: Histogram;
  private readonly logins: Counter;
  private readonly tokens: Counter;
  private readonly droppedSpans: Counter;
  private readonly refusedConnections: Counter;
  private readonly watchedServers = new Map<string, Server>();
  // prom-client resolves a label set on every observation; each set is resolved once here.
  private readonly callSeries = new Map<string, { count: Incrementer; duration: Observer }>();
  private readonly phaseSeries = new Map<string, Observer>();
  private readonly loginSeries = new Map<string, Incrementer>();
  private readonly tokenSeries = new Map<string, Incrementer>();
  private readonly validateStarted = createContextKey<number>(0, { description: "validation started" });

  constructor() {
    const registers = [this.registry];
    this.requests = new Counter({
      name: "rpc_server_requests_total",
      help: "Calls answered, by RPC, protocol and gRPC status code.",
      labelNames: ["rpc_service", "rpc_method", "protocol", "grpc_status_code"],
      registers,
    });
    this.duration = new Histogram({
      name: "rpc_server_duration_seconds",
      help: "Time from the request in hand to the answer handed to the transport, by RPC, protocol and gRPC status code.",
      labelNames: ["rpc_service", "rpc_method", "protocol", "grpc_status_code"],
      buckets: CALL_BUCKETS,
      registers,
    });
    this.phases = new Histogram({
      name: "auth_call_phase_seconds",
      help: "Where a call's time goes: decode, validate, handle, encode (as person_call_phase_seconds).",
      labelNames: ["method", "protocol", "phase"],
      buckets: PHASE_BUCKETS,
      registers,
    });
    this.logins = new Counter({
      name: "auth_login_attempts_total",
      help: "Logins by outcome: success, failed (wrong password, unknown or disabled user), throttled (refused unchecked: too many failures), busy (refused unchecked before a limit was reached: too many attempts at once).",
      labelNames: ["outcome"],
      registers,
    });
    this.tokens = new Counter({
      name: "auth_token_validations_total",
      help: "Token validations by outcome: valid, expired, invalid, user_unknown, user_disabled.",
      labelNames: ["outcome"],
      registers,
    });
    this.droppedSpans = new Counter({
      name: "auth_trace_spans_dropped_total",
      help: "Trace spans never exported: queue_full (the bounded export queue was full), export_failed (the tracing backend refused, was down or too slow).",
      labelNames: ["reason"],
      registers,
    });
    // Present from the start (at 0), so a dashboard or an alert can tell "none dropped" from "not exported".
    for (const reason of ["queue_full", "export_failed"]) this.droppedSpans.labels(reason);
    this.refusedConnections = new Counter({
      name: "auth_connections_refused_total",
      help: "Connections closed as they were accepted, by port (rpc, rest): the port held as many as AUTH_MAX_CONNECTIONS.",
      labelNames: ["port"],
      registers,
    });
    for (const port of ["rpc", "rest"]) this.refusedConnections.labels(port);
    const servers = this.watchedServers;
    new Gauge({
      name: "auth_connections_open",
      help: "Connections a port (rpc, rest) holds now; AUTH_MAX_CONNECTIONS is the most it takes.",
      labelNames: ["port"],
      registers,
      async collect() {
        for (const [port, server] of servers) {
          this.labels(port).set(await new Promise<number>((resolve) => server.getConnections((_, n) => resolve(n ?? 0))));
        }
      },
    });
    collectDefaultMetrics({ register: this.registry });
  }

  start(service: string, method: string, protocol: Protocol): CallRecord {
    return { service, method, protocol, started: performance.now(), code: undefined };
  }

  finish(record: CallRecord | undefined, fallback: Code = Code.Unknown): void {
    if (!record) return;
    const code = record.code ?? fallback;
    const key = `${record.service}/${record.method}\u0000${record.protocol}\u0000${code}`;
    let series = this.callSeries.get(key);
    if (!series) {
      const labels = [record.service, record.method, record.protocol, codeName(code)];
      series = { count: this.requests.labels(...labels), duration: this.duration.labels(...labels) };
      this.callSeries.set(key, series);
    }
    series.count.inc();
    series.duration.observe((performance.now() - record.started) / 1000);
  }

  phase(record: CallRecord | undefined, phase: Phase, since: number): void {
    if (!record) return;
    const key = `${record.method}\u0000${record.protocol}\u0000${phase}`;
    let series = this.phaseSeries.get(key);
    if (!series) this.phaseSeries.set(key, (series = this.phases.labels(record.method, record.protocol, phase)));
    series.observe((performance.now() - since) / 1000);
  }

  login(outcome: LoginOutcome): void {
    count(this.loginSeries, this.logins, outcome);
  }

  token(outcome: TokenOutcome): void {
    count(this.tokenSeries, this.tokens, outcome);
  }

  spansDropped(reason: DropReason, count: number): void {
    this.droppedSpans.labels(reason).inc(count);
  }

  connectionRefused(port: string): void {
    this.refusedConnections.labels(port).inc();
  }

  watchConnections(port: string, server: Server): void {
    this.watchedServers.set(port, server);
  }

  outcome(): Interceptor[] {
    const outcome: Interceptor = (next) => async (req) => {
      const record = req.contextValues.get(callRecordKey);
      try {
        const res = await next(req);
        if (!record) return res;
        if (!res.stream) {
          record.code = OK;
          return res;
        }
        const messages = res.message;
        async function* counted() {
          try {
            yield* messages;
            record!.code = OK;
          } catch (err) {
            record!.code = ConnectError.from(err).code;
            throw err;
          }
        }
        return { ...res, message: counted() };
      } catch (err) {
        if (record) record.code = ConnectError.from(err).code;
        throw err;
      }
    };
    return [outcome];
  }

  phased(validation: Interceptor): Interceptor[] {
    // Before validation: when it started, so the handler's wrapper can tell validate (the time
    // until the handler starts) from handle.
    const validateStarted = this.validateStarted;
    const before: Interceptor = (next) => (req) => {
      req.contextValues.set(validateStarted, performance.now());
      return next(req);
    };
    const handle: Interceptor = (next) => async (req) => {
      const record = req.contextValues.get(callRecordKey);
      if (!record) return next(req);
      this.phase(record, "validate", req.contextValues.get(validateStarted));
      const started = performance.now();
      try {
        return await next(req);
      } finally {
        this.phase(record, "handle", started);
      }
    };
    return [before, validation, handle];
  }
}

function count(cache: Map<string, Incrementer>, counter: Counter, outcome: string): void {
  let series = cache.get(outcome);
  if (!series) cache.set(outcome, (series = counter.labels(outcome)));
  series.inc();
}
