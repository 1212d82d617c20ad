// Configuration from environment variables, each with a documented default
// (services/auth-node/README.md). Invalid values stop the start with a clear message
// instead of being silently replaced by defaults.
import { resolve } from "node:path";
import type { ConnectionAge } from "./connection-age.js";
import { type CorsSettings, parseOrigins } from "./cors.js";
import { type LogLevel, logLevels } from "./log.js";
import type { PostgresSettings } from "./postgres-store.js";
import type { TracingSettings } from "./tracing.js";

/**
 * Failed-login limits, each over a sliding window. None can lock the owner of an account out
 * from where they usually log in: see login-limiter.ts.
 */
export interface LoginLimits {
  /** Failed logins for one username from one client address before that pair is refused. */
  perUserAndAddress: number;
  /** Failed logins from one client address, any usernames, before that address is refused. */
  perAddress: number;
  /** Failed logins for one username from all addresses before addresses the user has not
   * logged in from lately are refused for it (a guessing attack spread over many addresses). */
  perUser: number;
  windowSeconds: number;
}

/**
 * Every limit on what a caller may send, in one place. Anything larger is refused before it
 * is buffered: RESOURCE_EXHAUSTED on the RPC port, 413 on the REST twin.
 */
export interface Limits {
  /** One request message, after decompression. The largest valid request is a
   * ValidateTokenRequest with 8,192 characters of up to 4 UTF-8 bytes: about 32 KiB. */
  messageBytes: number;
  /** One REST request body: the JSON forms of the same messages. */
  restBodyBytes: number;
  /** Request headers of one call or HTTP request: room for the longest token the contract
   * allows in "authorization: Bearer <token>", and the rest. HTTP/2: the header list as
   * HTTP/2 counts it; HTTP/1.1 (the RPC port's and the REST port's): the request head. */
  headerListBytes: number;
  /** How long a request may take to arrive whole, at most (a shorter deadline of the call's
   * own applies first): a client that never finishes sending does not hold a stream for ever.
   * On HTTP/1.1 it bounds the head and the whole request (a slow-loris client gets 408), and
   * a new connection's first bytes. */
  requestArrivalSeconds: number;
  /** Streams one client may have open at once on one HTTP/2 connection. */
  streamsPerConnection: number;
  /** Connections one port holds at once (the RPC port's HTTP/1.1 and HTTP/2 together, and the
   * REST port's): past it a new connection is closed as soon as it is accepted
   * (connection-limits.ts). */
  connections: number;
  /** How long an HTTP/2 connection of the RPC port may stay open with no call on it before it
   * is sent GOAWAY; 0: as long as the client keeps it. */
  connectionIdleSeconds: number;
}

export interface Config {
  host: string;
  /** gRPC, gRPC-Web and Connect, over HTTP/2 without TLS (prior knowledge) and HTTP/1.1
   * (Connect and gRPC-Web: browsers) on the one port. 0 picks a free port. */
  port: number;
  /** The REST/JSON twin and the JWKS document (HTTP/1.1). 0 picks a free port. */
  restPort: number;
  dataDir: string;
  /** PostgreSQL, shared by every replica; undefined: SQLite in dataDir (store.ts). */
  database: PostgresSettings | undefined;
  issuer: string;
  audience: string;
  tokenTtlSeconds: number;
  clockSkewSeconds: number;
  adminUsername: string;
  /** Only needed on first start, when the user database is empty. */
  adminPassword: string | undefined;
  logLevel: LogLevel;
  loginLimits: LoginLimits;
  limits: Limits;
  /** log2 of scrypt's cost parameter N for new password hashes. */
  scryptLogN: number;
  shutdownGraceMs: number;
  /** How long an HTTP/2 connection of the RPC port lives, and how long its calls in flight may
   * then take (connection-age.ts). maxAgeMs 0: as long as the client keeps it. */
  connectionAge: ConnectionAge;
  /** Which web origins may call the RPC port from a browser (cors.ts). */
  cors: CorsSettings;
  /** Prometheus metrics (metrics.ts): off, nothing is counted and the port is not opened. */
  metrics: { enabled: boolean; port: number };
  /** Traces (tracing.ts): exported to Zipkin when an endpoint is set, through a bounded queue. */
  tracing: TracingSettings;
}

/**
 * The bounds of the trace export queue (span-export.ts), which keep a tracing backend that is
 * down or slow from costing calls anything but their spans: past them spans are dropped and
 * counted (auth_trace_spans_dropped_total), never held. Not settings: only the endpoint is.
 */
export const TRACE_EXPORT_LIMITS = {
  /** Spans waiting for export, at most (a ValidateToken makes 4; about 500 calls' worth). */
  queueSpans: 2048,
  /** Spans per export request. */
  batchSpans: 256,
  /** A finished span waits at most this long before an export takes it. */
  flushIntervalMs: 1000,
  /** One export request, at most; then its batch is dropped. */
  exportTimeoutMs: 5000,
} as const;

export class ConfigError extends Error {
  override name = "ConfigError";
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    if (!/^[0-9]+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
    const value = Number(raw);
    if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
    return value;
  };
  const str = (name: string, fallback: string): string => {
    const raw = env[name];
    return raw === undefined || raw === "" ? fallback : raw;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    if (raw !== "true" && raw !== "false") throw new ConfigError(`${name} must be true or false, got "${raw}"`);
    return raw === "true";
  };
  const logLevel = str("AUTH_LOG_LEVEL", "info");
  if (!(logLevels as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`AUTH_LOG_LEVEL must be one of ${logLevels.join(", ")}, got "${logLevel}"`);
  }
  return {
    host: str("AUTH_HOST", "0.0.0.0"),
    port: int("AUTH_PORT", 50051, 0, 65535),
    restPort: int("AUTH_REST_PORT", 8081, 0, 65535),
    dataDir: resolve(str("AUTH_DATA_DIR", "data")),
    database: databaseSettings(env["AUTH_DATABASE_URL"], int("AUTH_DATABASE_POOL_SIZE", 10, 1, 1000), int("AUTH_DATABASE_TIMEOUT_SECONDS", 5, 1, 300)),
    issuer: str("AUTH_ISSUER", "acme-auth"),
    audience: str("AUTH_AUDIENCE", "acme"),
    tokenTtlSeconds: int("AUTH_TOKEN_TTL_SECONDS", 3600, 1, 7 * 24 * 3600),
    clockSkewSeconds: int("AUTH_CLOCK_SKEW_SECONDS", 30, 0, 300),
    adminUsername: str("AUTH_ADMIN_USERNAME", "admin"),
    adminPassword: env["AUTH_ADMIN_PASSWORD"] || undefined,
    logLevel: logLevel as LogLevel,
    loginLimits: {
      perUserAndAddress: int("AUTH_LOGIN_MAX_FAILURES_PER_USER_AND_ADDRESS", 5, 1, 1_000_000),
      perAddress: int("AUTH_LOGIN_MAX_FAILURES_PER_ADDRESS", 20, 1, 1_000_000),
      perUser: int("AUTH_LOGIN_MAX_FAILURES_PER_USER", 100, 1, 1_000_000),
      windowSeconds: int("AUTH_LOGIN_FAILURE_WINDOW_SECONDS", 900, 1, 86_400),
    },
    limits: {
      messageBytes: int("AUTH_MAX_MESSAGE_BYTES", 64 * 1024, 40 * 1024, 16 * 1024 * 1024),
      restBodyBytes: int("AUTH_MAX_REST_BODY_BYTES", 64 * 1024, 40 * 1024, 16 * 1024 * 1024),
      headerListBytes: int("AUTH_MAX_HEADER_LIST_BYTES", 16 * 1024, 9 * 1024, 1024 * 1024),
      requestArrivalSeconds: int("AUTH_MAX_REQUEST_ARRIVAL_SECONDS", 10, 1, 600),
      streamsPerConnection: int("AUTH_MAX_STREAMS_PER_CONNECTION", 100, 1, 10_000),
      connections: int("AUTH_MAX_CONNECTIONS", 1000, 1, 1_000_000),
      connectionIdleSeconds: int("AUTH_MAX_CONNECTION_IDLE_SECONDS", 300, 0, 7 * 24 * 3600),
    },
    // 2^15 costs about 50 ms and 32 MiB per hash on one core: slow for guessing, fine for logins.
    scryptLogN: int("AUTH_SCRYPT_LOG_N", 15, 10, 20),
    shutdownGraceMs: int("AUTH_SHUTDOWN_GRACE_SECONDS", 10, 0, 600) * 1000,
    connectionAge: {
      maxAgeMs: int("AUTH_MAX_CONNECTION_AGE_SECONDS", 0, 0, 7 * 24 * 3600) * 1000,
      graceMs: int("AUTH_MAX_CONNECTION_AGE_GRACE_SECONDS", 60, 0, 3600) * 1000,
    },
    cors: corsSettings(env, bool("AUTH_CORS_ALLOW_CREDENTIALS", false), int("AUTH_CORS_MAX_AGE_SECONDS", 7200, 0, 86_400)),
    metrics: { enabled: bool("AUTH_METRICS_ENABLED", true), port: int("AUTH_METRICS_PORT", 9464, 0, 65535) },
    tracing: { zipkinEndpoint: zipkinEndpoint(env["AUTH_TRACING_ZIPKIN_ENDPOINT"]), ...TRACE_EXPORT_LIMITS },
  };
}

function databaseSettings(url: string | undefined, poolSize: number, timeoutSeconds: number): PostgresSettings | undefined {
  if (url === undefined || url === "") return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError("AUTH_DATABASE_URL is not a URL (postgres://user:password@host:port/database)");
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    throw new ConfigError(`AUTH_DATABASE_URL must be a postgres:// URL, not ${parsed.protocol}//…`);
  }
  return { url, poolSize, timeoutMs: timeoutSeconds * 1000 };
}

function zipkinEndpoint(url: string | undefined): string | undefined {
  if (url === undefined || url === "") return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError("AUTH_TRACING_ZIPKIN_ENDPOINT is not a URL (http://zipkin:9411/api/v2/spans)");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ConfigError(`AUTH_TRACING_ZIPKIN_ENDPOINT must be an http:// or https:// URL, not ${parsed.protocol}//…`);
  }
  return url;
}

function corsSettings(env: Env, allowCredentials: boolean, maxAgeSeconds: number): CorsSettings {
  let allowedOrigins: string[];
  try {
    allowedOrigins = parseOrigins(env["AUTH_CORS_ALLOWED_ORIGINS"] ?? "");
  } catch (err) {
    throw new ConfigError(`AUTH_CORS_ALLOWED_ORIGINS: ${(err as Error).message}`);
  }
  if (allowCredentials && allowedOrigins.includes("*")) {
    throw new ConfigError(`AUTH_CORS_ALLOWED_ORIGINS may not be "*" when AUTH_CORS_ALLOW_CREDENTIALS is true: name the origins`);
  }
  return { allowedOrigins, allowCredentials, maxAgeSeconds };
}
