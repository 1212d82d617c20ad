// Structured logs: one JSON object per line on stdout, so a log shipper needs no parser.
// Callers pass facts as fields; passwords and tokens are never among them. Lines are written
// asynchronously (log-writer.ts), and made there too, one or two turns of the event loop later:
// logging a call costs a closure on its path, not a JSON text and not a write. The fields are
// read when the line is made, so pass values, not objects that change afterwards.
import { asyncLineWriter, type LineWriter } from "./log-writer.js";

export type LogLevel = "debug" | "info" | "warn" | "error";
export const logLevels: readonly LogLevel[] = ["debug", "info", "warn", "error"];

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
  /** Resolves when every line logged so far has been written. */
  flush(): Promise<void>;
}

let stdout: LineWriter | undefined;

/** Standard output, one queue for the whole process so lines keep their order. */
function standardOutput(): LineWriter {
  return (stdout ??= asyncLineWriter(1));
}

export function createLogger(
  level: LogLevel,
  write: ((line: string) => void) | LineWriter = standardOutput(),
  base: LogFields = {},
): Logger {
  const out: LineWriter =
    typeof write === "function"
      ? { write: (line) => write(typeof line === "string" ? line : line()), flush: () => Promise.resolve() }
      : write;
  const threshold = logLevels.indexOf(level);
  const emit = (lvl: LogLevel, msg: string, fields?: LogFields) => {
    if (logLevels.indexOf(lvl) < threshold) return;
    const time = Date.now();
    out.write(() => {
      const line = (extra?: LogFields) =>
        JSON.stringify({ time: new Date(time).toISOString(), level: lvl, msg, ...base, ...extra }, errorsAsObjects);
      try {
        return line(fields);
      } catch (err) {
        // A field JSON cannot hold (a BigInt, a cycle): the line without its fields, saying so.
        return line({ unloggable: err instanceof Error ? err.message : "not serializable" });
      }
    });
  };
  return {
    debug: (msg, fields) => emit("debug", msg, fields),
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
    child: (fields) => createLogger(level, out, { ...base, ...fields }),
    flush: () => out.flush(),
  };
}

// JSON.stringify turns an Error into "{}"; keep what helps an operator.
function errorsAsObjects(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    return { name: value.name, message: value.message, stack: value.stack };
  }
  return value;
}
