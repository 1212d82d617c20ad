// connect-es's universal handlers on Node's core HTTP/2 stream API: a request stream becomes
// a UniversalServerRequest, the UniversalServerResponse is written back to the stream. This
// is what connect-node's adapter does on top of the request/response compatibility API —
// without that layer's two objects, its header copies and its stream wrapping on every call.
// Every call that takes no faster path (grpc-unary.ts) is served here: gRPC-Web, Connect,
// streaming calls, health and reflection.
import { constants, type IncomingHttpHeaders, type ServerHttp2Stream } from "node:http2";
import { Code, ConnectError, type ContextValues } from "@connectrpc/connect";
import type { UniversalHandler, UniversalServerRequest, UniversalServerResponse } from "@connectrpc/connect/protocol";
import type { Logger } from "./log.js";
import { callRecordKey, type Metrics } from "./metrics.js";

export function serveUniversal(
  handler: UniversalHandler,
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  contextValues: ContextValues,
  log: Logger,
  metrics: Metrics,
  /** Headers the port adds to the answer (CORS). */
  extra?: Record<string, string>,
): void {
  const record = contextValues.get(callRecordKey);
  const abort = new AbortController();
  // Always with a reason: without one AbortController makes a DOMException, and its stack.
  stream.once("close", () => abort.abort(resetError(stream.rstCode)));
  const request: UniversalServerRequest = {
    httpVersion: "2.0",
    method: headers[":method"] ?? "",
    url: `http://${headers[":authority"] ?? "localhost"}${headers[":path"] ?? "/"}`,
    header: webHeaders(headers),
    // Not the stream's own iterator: returning from that one destroys the stream, and the
    // error answer that follows a refused request could not be sent.
    body: stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>,
    signal: abort.signal,
    contextValues,
  };
  handler(request)
    .then(async (response) => {
      const answered = await writeResponse(response, stream, extra);
      // What the interceptors or protocol-errors.ts did not see: an answer connect-es gave on
      // its own, or none, to a client that had gone.
      const fallback = !answered ? Code.Canceled : response.status === 415 || response.status === 405 ? Code.Unimplemented : Code.Unknown;
      metrics.finish(record, fallback);
    })
    .catch((err: unknown) => {
      const code = ConnectError.from(err).code;
      if (code !== Code.Canceled) {
        log.error("could not answer a call", { procedure: `${handler.service.typeName}/${handler.method.name}`, err });
      }
      if (record) record.code = code;
      metrics.finish(record);
      if (!stream.destroyed) stream.close(constants.NGHTTP2_INTERNAL_ERROR);
    });
}

/** A request's headers as fetch's Headers, without the HTTP/2 pseudo-headers. */
export function webHeaders(headers: IncomingHttpHeaders): Headers {
  const web = new Headers();
  for (const name in headers) {
    if (name.charCodeAt(0) === 58 /* ":" */) continue;
    const value = headers[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) web.append(name, v);
    else web.append(name, String(value));
  }
  return web;
}

/** fetch's Headers as Node's header object (set-cookie-like repeats joined, as fetch does). */
export function nodeHeaders(web: Headers, into: Record<string, string | number> = {}): Record<string, string | number> {
  web.forEach((value, name) => (into[name] = value));
  return into;
}

/** Writes the answer; false when the stream had closed before it could. */
async function writeResponse(response: UniversalServerResponse, stream: ServerHttp2Stream, extra?: Record<string, string>): Promise<boolean> {
  const body = response.body?.[Symbol.asyncIterator]();
  try {
    // The headers go after the first body chunk, so a handler can still add to them.
    let chunk = body ? await body.next() : { done: true as const, value: undefined };
    if (stream.destroyed || stream.closed) return false;
    const trailers = response.trailer && [...response.trailer.keys()].length > 0 ? nodeHeaders(response.trailer) : undefined;
    stream.respond(nodeHeaders(response.header ?? new Headers(), { ":status": response.status, ...extra }), { waitForTrailers: trailers !== undefined });
    if (trailers) stream.once("wantTrailers", () => stream.sendTrailers(trailers));
    for (; chunk.done !== true; chunk = await body!.next()) {
      if (!stream.write(chunk.value)) await drained(stream);
    }
    stream.end();
    return true;
  } finally {
    await body?.return?.();
    // A request refused before it was read whole would keep its unread data, and so the
    // stream, until the connection ends: read and drop the rest (the arrival limit bounds it).
    if (!stream.readableEnded) stream.resume();
  }
}

function drained(stream: ServerHttp2Stream): Promise<void> {
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      stream.off("close", onClose);
      resolve();
    };
    const onClose = () => {
      stream.off("drain", onDrain);
      reject(new ConnectError("the stream closed while the answer was written", Code.Canceled));
    };
    stream.once("drain", onDrain);
    stream.once("close", onClose);
  });
}

/** What a closed stream means for the call still running on it (as connect-node maps it). */
export function resetError(rstCode: number | undefined): ConnectError {
  const name = `http/2 stream closed with error code 0x${(rstCode ?? 0).toString(16)}`;
  switch (rstCode) {
    case constants.NGHTTP2_REFUSED_STREAM:
      return new ConnectError(name, Code.Unavailable);
    case constants.NGHTTP2_CANCEL:
    case constants.NGHTTP2_NO_ERROR:
    case undefined:
      return new ConnectError(name, Code.Canceled);
    case constants.NGHTTP2_ENHANCE_YOUR_CALM:
      return new ConnectError(name, Code.ResourceExhausted);
    default:
      return new ConnectError(name, Code.Internal);
  }
}
