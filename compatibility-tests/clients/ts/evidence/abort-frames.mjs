// abort-frames.mjs — why the deadline case of cases/person-spring.yaml repeats its stream
// with the same request_id before it counts rows. A Connect-node gRPC client streams one
// RegisterPeople message and never ends the stream; a TCP proxy logs the HTTP/2 frames it sends. On the deadline (or, with
// the argument `cancel`, an AbortSignal) the client sends DATA with END_STREAM — a half-close —
// before RST_STREAM, so a server sees a finished stream first. Run from this package's folder
// with the project's Node: node evidence/abort-frames.mjs [cancel]
import net from "node:net";
import http2 from "node:http2";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { PersonService } from "@acme/contracts/acme/person/v1/person_service_pb";
const t0 = Date.now();
const names = { 0: "DATA", 1: "HEADERS", 3: "RST_STREAM", 4: "SETTINGS", 6: "PING", 7: "GOAWAY", 8: "WINDOW_UPDATE" };
const server = http2.createServer();
server.on("stream", (stream) => stream.on("error", () => {}));
server.listen(0, () => {
  const proxy = net.createServer((c) => {
    const s = net.connect(server.address().port, "127.0.0.1");
    let buf = Buffer.alloc(0), preface = false;
    c.on("data", (d) => {
      s.write(d);
      buf = Buffer.concat([buf, d]);
      if (!preface && buf.length >= 24) { buf = buf.subarray(24); preface = true; }
      while (preface && buf.length >= 9) {
        const len = buf.readUIntBE(0, 3), type = buf[3], flags = buf[4], id = buf.readUInt32BE(5) & 0x7fffffff;
        if (buf.length < 9 + len) break;
        if (id > 0) console.log(Date.now() - t0, "client->server", names[type] ?? type, `stream ${id}`, `len ${len}`,
          (type === 0 || type === 1) && (flags & 1) ? "END_STREAM" : "", type === 3 ? `code ${buf.readUInt32BE(9)}` : "");
        buf = buf.subarray(9 + len);
      }
    });
    s.pipe(c); c.on("error", () => {}); s.on("error", () => {});
  });
  proxy.listen(0, async () => {
    const client = createClient(PersonService, createGrpcTransport({ baseUrl: `http://127.0.0.1:${proxy.address().port}`, httpVersion: "2" }));
    const q = (async function* () { yield { person: { name: "x", age: 1 } }; await new Promise(() => {}); })();
    const ac = new AbortController();
    if (process.argv[2] === "cancel") setTimeout(() => ac.abort(), 500);
    try { await client.registerPeople(q, process.argv[2] === "cancel" ? { signal: ac.signal } : { timeoutMs: 500 }); }
    catch (e) { console.log(Date.now() - t0, "client:", e.message); }
    setTimeout(() => process.exit(0), 300);
  });
});
