// Test fixtures: a throwaway data folder, a configuration for it, the app behind the
// in-memory router transport, the real server on port 0, and real generated clients
// for each of the three protocols. Logs are captured so tests can read them.
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Client, ConnectError, createClient, createRouterTransport, type Transport } from "@connectrpc/connect";
import {
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
  Http2SessionManager,
} from "@connectrpc/connect-node";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { type App, createApp } from "../src/app.js";
import { type Config, loadConfig } from "../src/config.js";
import { createLogger, type Logger } from "../src/log.js";
import { type RunningServer, startServer } from "../src/server.js";
import assert from "node:assert/strict";
import pg from "pg";
import type { Code } from "@connectrpc/connect";

export const ADMIN = { username: "admin", password: "admin-password-123" };

/**
 * The store the suite runs against: SQLite in each test's data folder, or — when
 * AUTH_TEST_DATABASE_URL names a PostgreSQL role that may create databases
 * (scripts/services/auth-node.sh test-postgres) — a database of its own per data folder, so
 * the same tests run against both stores and a restart on one data folder finds its data.
 */
export const TEST_DATABASE_URL = process.env["AUTH_TEST_DATABASE_URL"] || undefined;
export const store: "sqlite" | "postgres" = TEST_DATABASE_URL ? "postgres" : "sqlite";

export async function tempDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "auth-node-test-"));
  if (TEST_DATABASE_URL) await createDatabase(databaseName(dir));
  return dir;
}

/** The test database of a data folder. */
export function databaseUrl(dataDir: string): string {
  const url = new URL(TEST_DATABASE_URL!);
  url.pathname = `/${databaseName(dataDir)}`;
  return url.toString();
}

function databaseName(dataDir: string): string {
  return `auth_test_${createHash("sha256").update(dataDir).digest("hex").slice(0, 20)}`;
}

async function createDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export function testConfig(dataDir: string, overrides: Partial<Config> = {}): Config {
  return {
    host: "127.0.0.1",
    port: 0,
    restPort: 0,
    dataDir,
    database: TEST_DATABASE_URL ? { url: databaseUrl(dataDir), poolSize: 5, timeoutMs: 5000 } : undefined,
    issuer: "acme-auth-test",
    audience: "acme-test",
    tokenTtlSeconds: 600,
    clockSkewSeconds: 30,
    adminUsername: ADMIN.username,
    adminPassword: ADMIN.password,
    logLevel: "debug",
    loginLimits: { perUserAndAddress: 5, perAddress: 20, perUser: 100, windowSeconds: 900 },
    // The production limits, from their one definition.
    limits: loadConfig({}).limits,
    // Cheaper than production's 2^15 so the suite stays quick; the format and code path are the same.
    scryptLogN: 12,
    shutdownGraceMs: 5000,
    connectionAge: { maxAgeMs: 0, graceMs: 60_000 },
    cors: loadConfig({}).cors,
    metrics: { enabled: true, port: 0 },
    tracing: loadConfig({}).tracing,
    ...overrides,
  };
}

/** A logger that keeps every line, for asserting on what was (and was not) logged. */
export function captureLogger(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  return { log: createLogger("debug", (line) => lines.push(line)), lines };
}

export interface InMemory {
  app: App;
  dataDir: string;
  lines: string[];
  transport: Transport;
  client: Client<typeof AuthService>;
  close(): Promise<void>;
}

/** The app's routes and interceptors behind Connect's in-memory router transport. */
export async function inMemory(overrides: Partial<Config> = {}): Promise<InMemory> {
  const dataDir = await tempDataDir();
  const { log, lines } = captureLogger();
  const app = await createApp(testConfig(dataDir, overrides), log);
  const transport = createRouterTransport(app.routes, {
    router: { interceptors: app.interceptors, requestGate: app.requestGate },
  });
  return {
    app,
    dataDir,
    lines,
    transport,
    client: createClient(AuthService, transport),
    close: async () => {
      await app.close();
      await removeDir(dataDir);
    },
  };
}

export const protocols = ["grpc", "grpc-web", "connect"] as const;
export type Protocol = (typeof protocols)[number];

export interface Clients {
  transport(protocol: Protocol): Transport;
  close(): void;
}

/** Real HTTP/2 clients for each protocol, each on its own connection. */
export function clientsFor(port: number): Clients {
  const baseUrl = `http://127.0.0.1:${port}`;
  const managers: Http2SessionManager[] = [];
  const manager = () => {
    const m = new Http2SessionManager(baseUrl);
    managers.push(m);
    return m;
  };
  return {
    transport(protocol) {
      const options = { baseUrl, httpVersion: "2" as const, sessionManager: manager() };
      if (protocol === "grpc") return createGrpcTransport(options);
      if (protocol === "grpc-web") return createGrpcWebTransport(options);
      return createConnectTransport(options);
    },
    close: () => managers.forEach((m) => m.abort()),
  };
}

export interface Started {
  server: RunningServer;
  dataDir: string;
  lines: string[];
  clients: Clients;
  close(): Promise<void>;
}

export async function startTestServer(overrides: Partial<Config> = {}, dataDir?: string): Promise<Started> {
  const dir = dataDir ?? (await tempDataDir());
  const { log, lines } = captureLogger();
  const server = await startServer(testConfig(dir, overrides), log);
  const clients = clientsFor(server.port);
  return {
    server,
    dataDir: dir,
    lines,
    clients,
    close: async () => {
      clients.close();
      await server.close();
      if (!dataDir) await removeDir(dir);
    },
  };
}

/** Awaits a call that must fail, and returns its ConnectError after checking the code. */
export async function rejects(call: Promise<unknown>, code: Code): Promise<ConnectError> {
  try {
    await call;
  } catch (err) {
    const error = ConnectError.from(err);
    assert.equal(error.code, code, `expected code ${code}, got ${error.code}: ${error.rawMessage}`);
    return error;
  }
  assert.fail(`expected the call to fail with code ${code}, but it succeeded`);
}

export function bearer(token: string): { headers: { authorization: string } } {
  return { headers: { authorization: `Bearer ${token}` } };
}

/** The value of the one sample of name whose labels include labels; 0 when there is none. */
export function sample(scrape: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of scrape.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(match[3]);
  }
  return 0;
}
