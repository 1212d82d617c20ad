// The TypeScript compatibility client (compatibility-tests/README.md is its contract):
//   exec                                   the executor: Steps on stdin, Outcomes on stdout
//   golden-encode --vectors FILE --out DIR
//   golden-decode --vectors FILE --peer NAME --in DIR
// In the golden modes stdout carries only the JSON lines (report.ts). Exit 0 once every
// requested feature was reported (or stdin ended, for exec), 2 on a usage error.
import { parseArgs } from "node:util";
import { call } from "./call.js";
import { closeTransports, nodeTransports } from "./transport.js";
import { describe, log } from "./report.js";
import { serve } from "./executor.js";
import { goldenDecode, goldenEncode } from "./golden/golden.js";

function usage(message: string): never {
  process.stderr.write(`usage error: ${message}\n` +
    "usage: run.sh exec\n" +
    "       run.sh golden-encode --vectors FILE --out DIR\n" +
    "       run.sh golden-decode --vectors FILE --peer NAME --in DIR\n");
  process.exit(2);
}

async function main(): Promise<void> {
  const [mode, ...rest] = process.argv.slice(2);
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        vectors: { type: "string" }, out: { type: "string" }, in: { type: "string" }, peer: { type: "string" },
      },
      strict: true,
    }) as { values: Record<string, string | undefined> });
  } catch (err) {
    usage(describe(err));
  }
  const need = (name: string) => values[name] ?? usage(`--${name} is required for ${mode}`);
  switch (mode) {
    case "exec": {
      const transports = nodeTransports();
      await serve((step) => call(step, transports));
      break;
    }
    case "golden-encode":
      await goldenEncode(need("vectors"), need("out"));
      break;
    case "golden-decode":
      await goldenDecode(need("vectors"), need("peer"), need("in"));
      break;
    default:
      usage(`unknown mode ${mode ?? "(none)"}`);
  }
}

main().then(
  () => {
    // Open HTTP/2 sessions would keep Node alive: close them, then leave.
    closeTransports();
    process.exit(0);
  },
  (err) => {
    log(`crashed: ${err instanceof Error ? err.stack : String(err)}`);
    process.exit(1);
  },
);
