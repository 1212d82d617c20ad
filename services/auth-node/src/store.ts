// Which store the service keeps its state in: SQLite in the data folder (the default, one
// process: users in the file, login failures in memory, the key in a file beside it) or
// PostgreSQL when AUTH_DATABASE_URL names one (everything shared by every replica).
import type { Config } from "./config.js";
import { type LimiterStorage, MemoryLimiterStorage } from "./login-limiter.js";
import type { Logger } from "./log.js";
import { PostgresStore } from "./postgres-store.js";
import { FileKeyStore, type KeyStore } from "./signing-key.js";
import { SqliteUserStore } from "./sqlite-store.js";
import type { UserStore } from "./user-store.js";

export interface Stores {
  kind: "sqlite" | "postgres";
  /** For logs: the file or the database (without its password). */
  where: string;
  users: UserStore;
  loginFailures: LimiterStorage;
  signingKey: KeyStore;
  close(): Promise<void>;
}

export async function openStores(config: Config, log: Logger): Promise<Stores> {
  if (config.database) {
    const store = await PostgresStore.open(config.database, log);
    return { kind: "postgres", where: store.where, users: store, loginFailures: store, signingKey: store, close: () => store.close() };
  }
  const users = SqliteUserStore.open(config.dataDir);
  return {
    kind: "sqlite",
    where: config.dataDir,
    users,
    loginFailures: new MemoryLimiterStorage(),
    signingKey: new FileKeyStore(config.dataDir, log),
    close: async () => users.close(),
  };
}
