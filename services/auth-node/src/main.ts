// Entry point: configuration from the environment, the servers, and shutdown on SIGTERM
// or SIGINT. Exit code 1 when the service cannot start.
import { ConfigError, loadConfig } from "./config.js";
import { createLogger } from "./log.js";
import { startServer } from "./server.js";

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    createLogger("info").error("invalid configuration", { reason: err.message });
    process.exit(1);
  }
  const log = createLogger(config.logLevel);
  let server;
  try {
    server = await startServer(config, log);
  } catch (err) {
    log.error("could not start", { err });
    process.exit(1);
  }
  const stop = (signal: string) => {
    log.info("signal received", { signal });
    server.close().then(
      () => log.flush().then(() => process.exit(0)),
      (err: unknown) => {
        log.error("shutdown failed", { err });
        void log.flush().then(() => process.exit(1));
      },
    );
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}

void main();
