// The store for more than one replica: PostgreSQL (AUTH_DATABASE_URL), shared by every
// auth-node that names it — users, login failures and trusted addresses (so failures spread
// over replicas count together), and the signing key (so any replica verifies any replica's
// tokens). A pool of connections (node-postgres), schema migrations on start.
//
// A database that cannot be reached — down, restarting, the network gone — fails the call
// with UNAVAILABLE (the client may retry); the pool opens new connections once it answers
// again. Each write is one statement, so a failure leaves nothing half-written.
//
// Durability: a write is answered after PostgreSQL committed it; with the server's defaults
// (fsync and synchronous_commit on) a commit is on disk first, and survives a crash of this
// service, of PostgreSQL, and a power loss.
import { Code, ConnectError } from "@connectrpc/connect";
import type { JWK } from "jose";
import pg from "pg";
import type { LimiterStorage } from "./login-limiter.js";
import { TRUSTED_PER_USER } from "./login-limiter.js";
import type { Logger } from "./log.js";
import type { KeyStore } from "./signing-key.js";
import { type RoleName, rolesFromJson, type UserRecord, type UserStore } from "./user-store.js";

export interface PostgresSettings {
  url: string;
  poolSize: number;
  /** For a connection, and for a statement: past it, the call fails UNAVAILABLE. */
  timeoutMs: number;
}

// Append only, as SQLite's: version N gets migrations N+1… in order, each in its transaction,
// under an advisory lock so replicas starting together do not apply one twice.
const migrations: readonly string[] = [
  `CREATE TABLE users (
     username      TEXT PRIMARY KEY,
     password_hash TEXT NOT NULL,
     roles         TEXT NOT NULL,         -- JSON array of role names
     disabled      BOOLEAN NOT NULL DEFAULT false,
     created_at    BIGINT NOT NULL        -- milliseconds since the epoch
   );
   CREATE TABLE login_failures (
     key TEXT NOT NULL,                   -- pair:["user","address"], addr:address, user:user
     at  BIGINT NOT NULL                  -- milliseconds since the epoch
   );
   CREATE INDEX login_failures_key_at ON login_failures (key, at);
   CREATE INDEX login_failures_at ON login_failures (at);
   CREATE TABLE trusted_addresses (
     username TEXT NOT NULL,
     address  TEXT NOT NULL,
     since    BIGINT NOT NULL,
     PRIMARY KEY (username, address)
   );
   CREATE TABLE signing_key (
     id         INTEGER PRIMARY KEY CHECK (id = 1),  -- one key, whoever generated it
     jwk        TEXT NOT NULL,
     created_at BIGINT NOT NULL
   )`,
];

/** Any number shared by every auth-node: the migrations' advisory lock. */
const MIGRATION_LOCK = 7_240_515;

interface Row {
  username: string;
  password_hash: string;
  roles: string;
  disabled: boolean;
  created_at: string;
}

export class PostgresStore implements UserStore, LimiterStorage, KeyStore {
  readonly where: string;
  private prunedAt = 0;
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly pool: pg.Pool,
    url: string,
  ) {
    this.where = redact(url);
  }

  static async open(settings: PostgresSettings, log: Logger): Promise<PostgresStore> {
    const pool = new pg.Pool({
      connectionString: settings.url,
      max: settings.poolSize,
      connectionTimeoutMillis: settings.timeoutMs,
      query_timeout: settings.timeoutMs,
      statement_timeout: settings.timeoutMs,
      idleTimeoutMillis: 30_000,
      application_name: "auth-node",
    });
    // An idle connection the server dropped: the pool replaces it; without a listener the
    // error would end the process.
    pool.on("error", (err) => log.warn("a database connection failed", { where: redact(settings.url), err: err.message }));
    const store = new PostgresStore(pool, settings.url);
    try {
      await store.migrate();
    } catch (err) {
      await pool.end();
      throw err;
    }
    return store;
  }

  private async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      await client.query("CREATE TABLE IF NOT EXISTS auth_schema (version INTEGER NOT NULL)");
      const { rows } = await client.query<{ version: number }>("SELECT version FROM auth_schema");
      const current = rows[0]?.version ?? 0;
      if (current > migrations.length) {
        throw new Error(`database schema version ${current} is newer than this service knows (${migrations.length})`);
      }
      for (let version = current + 1; version <= migrations.length; version++) await client.query(migrations[version - 1]!);
      if (rows.length === 0) await client.query("INSERT INTO auth_schema (version) VALUES ($1)", [migrations.length]);
      else await client.query("UPDATE auth_schema SET version = $1", [migrations.length]);
      await client.query("COMMIT");
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  // Users -------------------------------------------------------------------------------------

  async count(): Promise<number> {
    const { rows } = await this.query<{ n: string }>("count-users", "SELECT count(*) AS n FROM users");
    return Number(rows[0]!.n);
  }

  async find(username: string): Promise<UserRecord | undefined> {
    const { rows } = await this.query<Row>("find-user", "SELECT * FROM users WHERE username = $1", [username]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async insert(user: UserRecord): Promise<boolean> {
    const { rowCount } = await this.query(
      "insert-user",
      `INSERT INTO users (username, password_hash, roles, disabled, created_at)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (username) DO NOTHING`,
      [user.username, user.passwordHash, JSON.stringify(user.roles), user.disabled, user.createdAt.getTime()],
    );
    return rowCount === 1;
  }

  async disable(username: string): Promise<UserRecord | undefined> {
    const { rows } = await this.query<Row>("disable-user", "UPDATE users SET disabled = true WHERE username = $1 RETURNING *", [username]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async list(): Promise<UserRecord[]> {
    const { rows } = await this.query<Row>("list-users", "SELECT * FROM users ORDER BY username");
    return rows.map(fromRow);
  }

  // Login failures ------------------------------------------------------------------------------

  async failures(keys: readonly string[], since: number): Promise<number[][]> {
    const { rows } = await this.query<{ key: string; at: string }>(
      "failures",
      "SELECT key, at FROM login_failures WHERE key = ANY($1) AND at > $2 ORDER BY at",
      [keys, since],
    );
    return keys.map((key) => rows.filter((r) => r.key === key).map((r) => Number(r.at)));
  }

  async addFailure(keys: readonly string[], at: number, windowMs: number): Promise<void> {
    await this.query("add-failure", "INSERT INTO login_failures (key, at) SELECT unnest($1::text[]), $2", [keys, at]);
    // What left the window is of no use to anyone: each replica clears it now and then.
    if (at - this.prunedAt > windowMs / 10) {
      this.prunedAt = at;
      await this.query("prune-failures", "DELETE FROM login_failures WHERE at <= $1", [at - windowMs]);
    }
  }

  async clearFailures(key: string): Promise<void> {
    await this.query("clear-failures", "DELETE FROM login_failures WHERE key = $1", [key]);
  }

  async trustedSince(username: string, address: string): Promise<number | undefined> {
    const { rows } = await this.query<{ since: string }>(
      "trusted-since",
      "SELECT since FROM trusted_addresses WHERE username = $1 AND address = $2",
      [username, address],
    );
    return rows[0] ? Number(rows[0].since) : undefined;
  }

  async trust(username: string, address: string, at: number): Promise<void> {
    await this.query(
      "trust",
      `WITH upsert AS (
         INSERT INTO trusted_addresses (username, address, since) VALUES ($1, $2, $3)
         ON CONFLICT (username, address) DO UPDATE SET since = excluded.since
       )
       DELETE FROM trusted_addresses WHERE username = $1 AND address <> $2 AND address NOT IN (
         SELECT address FROM trusted_addresses WHERE username = $1 AND address <> $2 ORDER BY since DESC LIMIT $4)`,
      [username, address, at, TRUSTED_PER_USER - 1],
    );
  }

  // The signing key -----------------------------------------------------------------------------

  async load(): Promise<JWK | undefined> {
    const { rows } = await this.query<{ jwk: string }>("load-key", "SELECT jwk FROM signing_key WHERE id = 1");
    return rows[0] ? (JSON.parse(rows[0].jwk) as JWK) : undefined;
  }

  async saveFirst(jwk: JWK): Promise<JWK> {
    await this.query(
      "save-key",
      "INSERT INTO signing_key (id, jwk, created_at) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING",
      [JSON.stringify(jwk), Date.now()],
    );
    return (await this.load())!;
  }

  close(): Promise<void> {
    return (this.closing ??= this.pool.end());
  }

  /** One statement, prepared once per connection; unreachable means UNAVAILABLE. */
  private async query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    name: string,
    text: string,
    values: unknown[] = [],
  ): Promise<pg.QueryResult<R>> {
    if (this.closing) throw new Error("the user database is closed");
    try {
      return await this.pool.query<R>({ name, text, values });
    } catch (err) {
      if (unreachable(err)) {
        throw new ConnectError("the user database is unavailable; retry", Code.Unavailable, undefined, undefined, err);
      }
      throw err;
    }
  }
}

/** Whether err means the database could not be reached, went away or gave up on a statement
 * (not a bad statement): worth retrying. */
export function unreachable(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string") {
    // PostgreSQL's connection exceptions (08…), shutting down or starting up (57P0…), out of
    // connections (53300), a statement it cancelled (57014: its statement_timeout, which races
    // the client's own timer of the same length, or an operator's pg_cancel_backend); Node's
    // own when the socket fails.
    if (/^(08|57P0[1-3]|57014|53300)/.test(code)) return true;
    if (["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"].includes(code)) return true;
  }
  const message = err instanceof Error ? err.message : "";
  return /Connection terminated|timeout exceeded when trying to connect|not queryable|Query read timeout/i.test(message);
}

/** The URL without its password, for logs. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparsable database URL)";
  }
}

function fromRow(row: Row): UserRecord {
  return {
    username: row.username,
    passwordHash: row.password_hash,
    roles: rolesFromJson(row.roles) as RoleName[],
    disabled: row.disabled,
    createdAt: new Date(Number(row.created_at)),
  };
}
