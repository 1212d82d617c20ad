// A golden mode's only stdout: one JSON line per requested feature. Written with writeSync so
// every line is out before the process exits, whatever sessions are still open. Logs go to
// stderr (log), so the harness can parse stdout line by line.
import { writeSync } from "node:fs";
import { Failure } from "./check.js";

export type Feature = () => Promise<void>;

export function log(message: string): void {
  process.stderr.write(`[compat-ts] ${message}\n`);
}

function report(feature: string, result: "pass" | "fail", detail: string, ms: number): void {
  writeSync(1, JSON.stringify({ feature, result, detail, ms }) + "\n");
}

/**
 * Runs each requested feature in order and reports it. A failure (a failed check, a call
 * error or a crash inside the feature) fails that feature only; the next one still runs.
 */
export async function runFeatures(requested: string[], known: Record<string, Feature>): Promise<void> {
  for (const name of requested) {
    const feature = Object.hasOwn(known, name) ? known[name] : undefined;
    if (!feature) {
      report(name, "fail", "unknown feature", 0);
      continue;
    }
    const start = performance.now();
    try {
      await feature();
      report(name, "pass", "", Math.round(performance.now() - start));
    } catch (err) {
      const detail = err instanceof Failure ? err.message : `unexpected error: ${describe(err)}`;
      if (!(err instanceof Failure)) log(`${name}: ${err instanceof Error ? err.stack : String(err)}`);
      report(name, "fail", detail, Math.round(performance.now() - start));
    }
  }
}

export function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
