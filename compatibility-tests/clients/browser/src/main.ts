// The browser client of the compatibility matrix (compatibility-tests/README.md is its
// contract; only `exec`): the TypeScript executor's stdin/stdout loop, each Step made in a page
// in headless Chromium (page.ts). The page is served from BROWSER_PAGE_ORIGIN, the one origin
// the topology lets call its servers, and reaches each server where a page can:
// PERSON_WEB_TARGET and AUTH_WEB_TARGET (a web proxy, or the server itself).
//
// Steps over gRPC are the harness's set-up on the other server (the admin's login, a user a
// case makes): no page can speak gRPC, so this Node half makes them with the TypeScript
// executor's Connect for Node transport, as that executor would. Every step of the protocol
// under test runs in the page.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { base64Decode, base64Encode } from "@bufbuild/protobuf/wire";
import { call } from "../../ts/src/call.js";
import { serve } from "../../ts/src/executor.js";
import { OutcomeSchema, StepSchema } from "../../ts/src/gen/executor/acme/compat/executor/v1/executor_pb.js";
import { closeTransports, nodeTransports } from "../../ts/src/transport.js";
import { launch } from "../../../../scripts/tests/chromium.mjs";

const log = (message: string) => process.stderr.write(`[compat-browser] ${message}\n`);

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

async function main(): Promise<void> {
  if (process.argv[2] !== "exec") {
    process.stderr.write("usage: run.sh exec (the browser client has no golden modes: the TypeScript client covers its SDK)\n");
    process.exit(2);
  }
  const origin = new URL(required("BROWSER_PAGE_ORIGIN"));
  const files: Record<string, [string, string]> = {
    "/": ["index.html", "text/html; charset=utf-8"],
    "/page.js": ["page.js", "text/javascript; charset=utf-8"],
  };
  const dist = new URL(".", import.meta.url);
  const server = createServer((req, res) => {
    const file = files[new URL(req.url ?? "/", origin).pathname];
    if (file === undefined) {
      res.writeHead(404).end();
      return;
    }
    readFile(new URL(file[0], dist)).then(
      (body) => res.writeHead(200, { "content-type": file[1], "cache-control": "no-store" }).end(body),
      (err) => res.writeHead(500).end(String(err)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(Number(origin.port), origin.hostname, resolve);
  });

  const browser = await launch();
  try {
    const page = await browser.context.newPage();
    page.on("console", (m) => log(`page console ${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => log(`page error: ${e.stack ?? e.message}`));
    const query = new URLSearchParams({ person: required("PERSON_WEB_TARGET"), auth: required("AUTH_WEB_TARGET") });
    await page.goto(`${origin.origin}/?${query}`);
    await page.waitForFunction(() => typeof window.compatCall === "function");
    log(`page ready at ${origin.origin} in Chromium ${browser.context.browser()?.version() ?? ""}`);

    const node = nodeTransports();
    await serve(async (step) => {
      if (step.protocol === "grpc") return call(step, node);
      const outcome = await page.evaluate((s) => window.compatCall(s), base64Encode(toBinary(StepSchema, step)));
      return fromBinary(OutcomeSchema, base64Decode(outcome));
    });
  } finally {
    await browser.close();
    server.close();
    closeTransports();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    log(`crashed: ${err instanceof Error ? err.stack : String(err)}`);
    process.exit(1);
  },
);
