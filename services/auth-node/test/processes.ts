// Real auth-node processes (node dist/src/main.js, as the image runs it) for the tests that
// need more than one, or need one killed: replicas on one PostgreSQL, SIGKILL and restart. And
// the throwaway PostgreSQL server itself, stopped and started again, for the tests of a
// database that goes away (scripts/services/auth-node.sh test-postgres says where it is).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ADMIN, databaseUrl, TEST_DATABASE_URL } from "./support.js";

const MAIN = join(import.meta.dirname, "..", "src", "main.js");
/** Far above a start on a loaded 2-core machine (about a second). */
const START_TIMEOUT_MS = 60_000;

export interface AuthProcess {
  port: number;
  restPort: number;
  lines: string[];
  /** SIGKILL: no shutdown, nothing flushed; resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM, the graceful shutdown; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** An auth-node on dataDir's store (its SQLite file, or its PostgreSQL database), on free ports. */
export async function startProcess(dataDir: string, env: Record<string, string> = {}): Promise<AuthProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env["PATH"] ?? "",
      AUTH_HOST: "127.0.0.1",
      AUTH_PORT: "0",
      AUTH_REST_PORT: "0",
      AUTH_METRICS_PORT: "0",
      AUTH_DATA_DIR: dataDir,
      AUTH_ADMIN_PASSWORD: ADMIN.password,
      AUTH_SCRYPT_LOG_N: "10",
      AUTH_LOG_LEVEL: "info",
      ...(TEST_DATABASE_URL ? { AUTH_DATABASE_URL: databaseUrl(dataDir) } : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const listening = new Promise<{ port: number; restPort: number }>((resolve, reject) => {
    let rest = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      rest += chunk.toString();
      let newline: number;
      while ((newline = rest.indexOf("\n")) >= 0) {
        const line = rest.slice(0, newline);
        rest = rest.slice(newline + 1);
        lines.push(line);
        if (line.includes('"msg":"auth service listening"')) resolve(JSON.parse(line) as { port: number; restPort: number });
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => lines.push(chunk.toString()));
    void exited.then((code) => reject(new Error(`auth-node exited (${code}) before listening:\n${lines.join("\n")}`)));
  });
  // A process that neither listens nor exits is killed, and the start fails with what it
  // printed: left alone it would keep the test file, and the suite, from ever ending.
  const timer = setTimeout(() => signal(child, "SIGKILL"), START_TIMEOUT_MS);
  const { port, restPort } = await listening.finally(() => clearTimeout(timer));
  return {
    port,
    restPort,
    lines,
    kill: async () => {
      signal(child, "SIGKILL");
      await exited;
    },
    stop: () => {
      signal(child, "SIGTERM");
      return exited;
    },
  };
}

function signal(child: ChildProcess, name: NodeJS.Signals): void {
  if (child.exitCode === null && child.signalCode === null) child.kill(name);
}

/** The throwaway PostgreSQL server of the test-postgres run, to stop and start again. */
export const postgresServer = (() => {
  const data = process.env["AUTH_TEST_POSTGRES_DATA"];
  const bin = process.env["AUTH_TEST_POSTGRES_BIN"];
  if (!TEST_DATABASE_URL || !data || !bin) return undefined;
  // As the postgres user, as scripts/services/lib-postgres.sh runs it.
  const asPostgres = (args: string[]) => {
    const [cmd, ...rest] = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--", ...args] : ["sudo", "-u", "postgres", ...args];
    const result = spawnSync(cmd!, rest, { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`${args.join(" ")}: ${result.stderr || result.stdout}`);
  };
  // The options it was started with, from postmaster.opts ("/…/postgres" "-D" "/…" "-p" "…" …).
  const options = [...readFileSync(join(data, "postmaster.opts"), "utf8").matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
  const startOptions = options.filter((_, i) => options[i] !== "-D" && options[i - 1] !== "-D").map((o) => `'${o}'`).join(" ");
  return {
    /** Gone at once, as in a crash: connections cut, nothing answers. */
    stop: () => asPostgres([join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "stop"]),
    start: () => asPostgres([join(bin, "pg_ctl"), "-D", data, "-w", "-l", join(data, "server.log"), "-o", startOptions, "start"]),
  };
})();
