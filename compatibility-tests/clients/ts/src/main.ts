// The TypeScript compatibility driver (compatibility-tests/README.md is its contract):
//   live --server person-spring|auth-node --protocol grpc|grpc-web|connect --features a,b
//   golden-encode --vectors FILE --out DIR
//   golden-decode --vectors FILE --peer NAME --in DIR
// stdout carries only the JSON lines (report.ts). Exit 0 once every requested feature was
// reported, 2 on a usage error.
import { parseArgs } from "node:util";
import { liveEnv } from "./env.js";
import { closeTransports, type Protocol, protocols } from "./transport.js";
import { describe, log, runFeatures } from "./report.js";
import { authFeatures } from "./auth/features.js";
import { authSession } from "./auth/session.js";
import { personFeatures } from "./person/features.js";
import { personSession } from "./person/session.js";
import { goldenDecode, goldenEncode } from "./golden/golden.js";

function usage(message: string): never {
  process.stderr.write(`usage error: ${message}\n` +
    "usage: run.sh live --server person-spring|auth-node --protocol grpc|grpc-web|connect --features f1,f2,...\n" +
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
        server: { type: "string" }, protocol: { type: "string" }, features: { type: "string" },
        vectors: { type: "string" }, out: { type: "string" }, in: { type: "string" }, peer: { type: "string" },
      },
      strict: true,
    }) as { values: Record<string, string | undefined> });
  } catch (err) {
    usage(describe(err));
  }
  const need = (name: string) => values[name] ?? usage(`--${name} is required for ${mode}`);
  switch (mode) {
    case "live": {
      const server = need("server");
      const protocol = need("protocol") as Protocol;
      if (!protocols.includes(protocol)) usage(`unknown protocol ${protocol}`);
      const requested = need("features").split(",").map((f) => f.trim()).filter((f) => f !== "");
      const env = liveEnv();
      if (server === "auth-node") {
        await runFeatures(requested, authFeatures(authSession(env, protocol)));
      } else if (server === "person-spring") {
        await runFeatures(requested, personFeatures(personSession(env, protocol)));
      } else {
        usage(`unknown server ${server}`);
      }
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
