// ceiling.mjs — what Node itself costs per call, with no service behind it: the platform's
// ceiling for auth-node's gRPC port and REST twin, measured by the same h2load beside them.
// Two servers answer every request with the bytes auth-node's ValidateToken answers with:
//   - HTTP/2 (h2c, port CEILING_H2_PORT): the core stream API, response headers, one DATA
//     frame with the gRPC message, then trailers (grpc-status: 0) — a gRPC unary answer;
//   - HTTP/1.1 (port CEILING_H1_PORT): the JSON body, kept alive — the REST twin's answer.
// Each reads the whole request body first, as the services do. The answers come from the
// environment (CEILING_GRPC_MESSAGE: the message bytes in base64; CEILING_JSON: the body;
// CEILING_HEADERS: a JSON object of the extra response headers auth-node sends), so the only
// difference to auth-node left is auth-node's own work.
import { createServer as createHttpServer } from "node:http";
import { createServer as createHttp2Server } from "node:http2";

const env = (name) => {
  const value = process.env[name];
  if (value === undefined) {
    console.error(`ceiling.mjs: ${name} is not set`);
    process.exit(2);
  }
  return value;
};
const message = Buffer.from(env("CEILING_GRPC_MESSAGE"), "base64");
const frame = Buffer.alloc(5 + message.length);
frame.writeUInt32BE(message.length, 1);
message.copy(frame, 5);
const json = env("CEILING_JSON");
const extra = JSON.parse(env("CEILING_HEADERS"));

const h2 = createHttp2Server();
h2.on("stream", (stream) => {
  stream.on("data", () => {});
  stream.on("end", () => {
    if (stream.destroyed) return;
    stream.respond({ ":status": 200, "content-type": "application/grpc+proto", ...extra }, { waitForTrailers: true });
    stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
    stream.end(frame);
  });
});

const h1 = createHttpServer((req, res) => {
  req.on("data", () => {});
  req.on("end", () => res.writeHead(200, { "content-type": "application/json", ...extra }).end(json));
});

const listen = (server, port) => new Promise((resolve) => server.listen(Number(port), "0.0.0.0", () => resolve(server.address().port)));
const [h2Port, h1Port] = await Promise.all([listen(h2, env("CEILING_H2_PORT")), listen(h1, env("CEILING_H1_PORT"))]);
console.log(JSON.stringify({ msg: "ceiling listening", h2Port, h1Port }));
process.once("SIGTERM", () => process.exit(0));
process.once("SIGINT", () => process.exit(0));
