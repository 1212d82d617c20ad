// The browser half of the executor, bundled by esbuild into dist/page.js and loaded by
// index.html: each Step the Node half hands over (base64, through Playwright) is made by the
// TypeScript executor's own call() with Connect for Web's transports, so the bytes on the wire
// are those a web application would send. Addresses come from the page's query string:
// person and auth, each server as a page reaches it (its web proxy, or the server itself).
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { base64Decode, base64Encode } from "@bufbuild/protobuf/wire";
import type { Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web";
import { call, type Transports } from "../../ts/src/call.js";
import { OutcomeSchema, StepSchema } from "../../ts/src/gen/executor/acme/compat/executor/v1/executor_pb.js";

declare global {
  interface Window {
    /** A Step (base64 of its binary form) in, its Outcome (the same) out. */
    compatCall(step: string): Promise<string>;
  }
}

const query = new URLSearchParams(location.search);
const targets: Record<string, string | null> = { "person-spring": query.get("person"), "auth-node": query.get("auth") };
const made = new Map<string, Transport>();

const transports: Transports = {
  name: "Connect for Web",
  protocols: ["grpc-web", "connect"],
  get(server, protocol) {
    const key = `${server} ${protocol}`;
    let t = made.get(key);
    if (t === undefined) {
      const target = targets[server];
      if (!target) throw new Error(`unknown server ${server}, or the page was given no address for it`);
      const baseUrl = `http://${target}`;
      // Connect in its binary form: a newer schema's fields, unknown to this SDK, travel as
      // unknown fields only there (JSON has no way to write them).
      t = protocol === "grpc-web" ? createGrpcWebTransport({ baseUrl }) : createConnectTransport({ baseUrl, useBinaryFormat: true });
      made.set(key, t);
    }
    return t;
  },
};

window.compatCall = async (step) =>
  base64Encode(toBinary(OutcomeSchema, await call(fromBinary(StepSchema, base64Decode(step)), transports)));
