// Requests no generated client would send: raw HTTP/2 with hand-made gRPC envelopes, the
// bytes an outside client or an attacker controls. One session per test, so calls can share
// a connection the way a real client's do.
import { connect, type ClientHttp2Session, type ClientHttp2Stream, type ClientSessionOptions, type IncomingHttpHeaders } from "node:http2";
import { connect as netConnect } from "node:net";
import { gzipSync } from "node:zlib";

export interface RawAnswer {
  /** HTTP status, and the gRPC status and message from trailers (or headers, for trailers-only). */
  httpStatus: number;
  grpcStatus: number | undefined;
  grpcMessage: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export function session(port: number): ClientHttp2Session {
  return connect(`http://127.0.0.1:${port}`);
}

/** Connection options that make a client's connections come from localAddress (127.0.0.x). */
export function fromAddress(localAddress: string): ClientSessionOptions {
  return { createConnection: (url: URL) => netConnect({ host: url.hostname, port: Number(url.port), localAddress }) };
}

/** One gRPC length-prefixed message; compressed sets the flag (the payload is taken as given). */
export function envelope(payload: Uint8Array, compressed = false): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt8(compressed ? 1 : 0, 0);
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, payload]);
}

/** gzip of size zero bytes: a few hundred bytes per megabyte, for decompression bombs. */
export function gzipBomb(size: number): Buffer {
  return gzipSync(Buffer.alloc(size), { level: 9 });
}

export function post(
  s: ClientHttp2Session,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = s.request({ ":method": "POST", ":path": path, ...headers });
    const chunks: Buffer[] = [];
    let responseHeaders: IncomingHttpHeaders = {};
    let trailers: IncomingHttpHeaders = {};
    req.on("response", (h) => (responseHeaders = h));
    req.on("trailers", (t) => (trailers = t));
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("error", reject);
    req.on("end", () => {
      const status = trailers["grpc-status"] ?? responseHeaders["grpc-status"];
      const message = trailers["grpc-message"] ?? responseHeaders["grpc-message"];
      resolve({
        httpStatus: Number(responseHeaders[":status"]),
        grpcStatus: status === undefined ? undefined : Number(status),
        grpcMessage: decodeURIComponent(String(message ?? "")),
        headers: responseHeaders,
        body: Buffer.concat(chunks),
      });
    });
    req.end(body);
  });
}

/** A gRPC call of AuthService/<method> with the given envelopes (already framed). */
export function grpc(
  s: ClientHttp2Session,
  method: string,
  body: Buffer,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  return post(s, `/acme.auth.v1.AuthService/${method}`, { "content-type": "application/grpc", te: "trailers", ...headers }, body);
}

/** A gRPC call of AuthService/<method> whose request the test sends itself, when it likes
 * (req.write, req.end); answered is the grpc-status it ends with. */
export function openCall(s: ClientHttp2Session, method: string): { req: ClientHttp2Stream; answered: Promise<string | undefined> } {
  const req = s.request({ ":method": "POST", ":path": `/acme.auth.v1.AuthService/${method}`, "content-type": "application/grpc", te: "trailers" });
  const answered = new Promise<string | undefined>((resolve, reject) => {
    let status: string | undefined;
    req.on("response", (h) => (status = h["grpc-status"] as string | undefined));
    req.on("trailers", (t) => (status = t["grpc-status"] as string | undefined));
    req.on("error", reject);
    req.on("end", () => resolve(status));
    req.resume();
  });
  return { req, answered };
}
