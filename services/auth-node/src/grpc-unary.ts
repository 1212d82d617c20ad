// A unary call over gRPC (binary protobuf), served on Node's core HTTP/2 stream API. Every
// acme.auth.v1 call person-spring makes comes this way, so it is the port's hot path.
// connect-es serves it through a general pipeline of async iterables built for streams —
// split, decompress, parse, ensure-single, serialize, compress, join, each a generator over
// the previous one — with three AbortControllers, three Headers copies and an abort (and its
// DOMException) per call. Here the one request message is read, decoded, handed to the same
// interceptors and implementation through connect-es's own invokeUnaryImplementation, and
// answered with one write. What a client sees is what connect-es answers, byte for byte
// (grpc-unary.test.ts compares the two on a corpus of good and hostile requests), with the
// refusals of protocol-errors.ts: INVALID_ARGUMENT for what cannot be decoded.
import type { IncomingHttpHeaders, ServerHttp2Stream } from "node:http2";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, type ContextValues, type MethodImplSpec } from "@connectrpc/connect";
import { type Compression, compressionNegotiate } from "@connectrpc/connect/protocol";
import {
  contentTypeProto,
  grpcStatusOk,
  headerAcceptEncoding,
  headerContentType,
  headerEncoding,
  headerGrpcStatus,
  parseTimeout,
  setTrailerStatus,
} from "@connectrpc/connect/protocol-grpc";
import { nodeHeaders, resetError } from "./http2-universal.js";
import type { Logger } from "./log.js";
import { type CallRecord, callRecordKey, type Metrics } from "./metrics.js";
import { notAValidMessage, UNARY_NEEDS_ONE_MESSAGE } from "./protocol-errors.js";
import { CallContext, type Invoke } from "./unary-invoke.js";

export type UnarySpec = MethodImplSpec & { kind: "unary" };

/** A unary method the path serves: its implementation with the interceptors around it. */
export interface UnaryMethod {
  spec: UnarySpec;
  invoke: Invoke;
}

export interface GrpcUnaryOptions {
  /** One request message, after decompression. */
  readMaxBytes: number;
  acceptCompression: Compression[];
  /** Answers at least this large are compressed when the client accepts it (connect-es's default). */
  compressMinBytes: number;
  log: Logger;
  metrics: Metrics;
}

const GRPC_BINARY = /^application\/grpc(?:\+proto)?$/i;
const COMPRESSED = 0b1;

/** The requests this path serves: a POST of binary gRPC. Everything else goes to connect-es. */
export function isGrpcBinary(headers: IncomingHttpHeaders): boolean {
  return headers[":method"] === "POST" && GRPC_BINARY.test(headers["content-type"] ?? "");
}

export function serveGrpcUnary(
  method: UnaryMethod,
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  values: ContextValues,
  options: GrpcUnaryOptions,
  /** Headers the port adds to the answer (CORS). */
  extra?: Record<string, string>,
): void {
  new GrpcUnaryCall(method, stream, headers, values, options, extra).start();
}

class GrpcUnaryCall {
  private readonly chunks: Buffer[] = [];
  private buffered = 0;
  /** The envelope being read: its flags and length, once its 5-byte prefix arrived. */
  private flags = -1;
  private length = 0;
  private received = 0;
  private message: unknown;
  /** Set while a compressed message is being inflated; later envelopes wait for it. */
  private decoding: Promise<void> | undefined;
  private finished = false;
  private readonly abort = new AbortController();
  private deadline: NodeJS.Timeout | undefined;
  private readonly compression: ReturnType<typeof compressionNegotiate>;
  private readonly timeout: ReturnType<typeof parseTimeout>;
  private readonly context: CallContext;
  private readonly record: CallRecord | undefined;
  private readonly spec: UnarySpec;

  constructor(
    private readonly method: UnaryMethod,
    private readonly stream: ServerHttp2Stream,
    headers: IncomingHttpHeaders,
    values: ContextValues,
    private readonly options: GrpcUnaryOptions,
    private readonly extra: Record<string, string> | undefined,
  ) {
    this.spec = method.spec;
    this.record = values.get(callRecordKey);
    this.compression = compressionNegotiate(
      options.acceptCompression,
      (headers["grpc-encoding"] as string | undefined) ?? null,
      (headers["grpc-accept-encoding"] as string | undefined) ?? null,
      headerAcceptEncoding,
    );
    this.timeout = parseTimeout((headers["grpc-timeout"] as string | undefined) ?? null, Number.MAX_SAFE_INTEGER);
    const responseHeader = new Headers();
    responseHeader.set(headerContentType, contentTypeProto);
    if (this.compression.response) responseHeader.set(headerEncoding, this.compression.response.name);
    const responseTrailer = new Headers();
    responseTrailer.set(headerGrpcStatus, grpcStatusOk);
    const timeoutMs = this.timeout.timeoutMs;
    const deadlineAt = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    this.context = new CallContext(
      method.spec.method,
      "grpc",
      `http://${headers[":authority"] ?? "localhost"}${headers[":path"]}`,
      this.abort.signal,
      () => (deadlineAt === undefined ? undefined : deadlineAt - Date.now()),
      headers,
      responseHeader,
      responseTrailer,
      values,
    );
  }

  start(): void {
    const { stream } = this;
    stream.once("close", () => this.closed());
    // What connect-es checks before it reads the body, in its order.
    const early = this.compression.error ?? this.timeout.error;
    if (early) return this.fail(early);
    const timeoutMs = this.timeout.timeoutMs;
    if (timeoutMs !== undefined) {
      this.deadline = setTimeout(() => this.abort.abort(new ConnectError("the operation timed out", Code.DeadlineExceeded)), timeoutMs);
    }
    stream.on("data", (chunk: Buffer) => this.data(chunk));
    stream.once("end", () => void this.end());
  }

  private data(chunk: Buffer): void {
    if (this.finished) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    try {
      for (;;) {
        if (this.flags < 0) {
          if (this.buffered < 5) return;
          const prefix = this.take(5);
          this.flags = prefix[0]!;
          this.length = prefix.readUInt32BE(1);
          if (this.length > this.options.readMaxBytes) {
            throw new ConnectError(
              `message size ${this.length} is larger than configured readMaxBytes ${this.options.readMaxBytes}`,
              Code.ResourceExhausted,
            );
          }
        }
        if (this.buffered < this.length) return;
        const flags = this.flags;
        this.flags = -1;
        this.envelope(flags, this.take(this.length));
        if (this.finished) return;
      }
    } catch (err) {
      this.fail(err);
    }
  }

  /** One whole envelope: the request, or a second one, which a unary call must not have. */
  private envelope(flags: number, data: Buffer): void {
    const index = ++this.received;
    if ((flags & COMPRESSED) === 0 && this.decoding === undefined) {
      const started = performance.now();
      const message = this.parse(data);
      this.options.metrics.phase(this.record, "decode", started);
      return this.accept(index, message);
    }
    this.decoding = (this.decoding ?? Promise.resolve())
      .then(async () => {
        if (this.finished) return;
        const started = performance.now();
        const message = this.parse(await this.inflate(flags, data));
        this.options.metrics.phase(this.record, "decode", started);
        this.accept(index, message);
      })
      .catch((err: unknown) => this.fail(err));
  }

  private accept(index: number, message: unknown): void {
    if (index === 1) this.message = message;
    else this.fail(this.refused(UNARY_NEEDS_ONE_MESSAGE));
  }

  private async inflate(flags: number, data: Uint8Array): Promise<Uint8Array> {
    if ((flags & COMPRESSED) === 0) return data;
    const compression = this.compression.request;
    if (!compression) throw this.refused(notAValidMessage(this.spec.method.input.typeName));
    try {
      return await compression.decompress(data, this.options.readMaxBytes);
    } catch (err) {
      throw this.decodingError(err);
    }
  }

  private parse(data: Uint8Array): unknown {
    if (data.byteLength > this.options.readMaxBytes) {
      throw new ConnectError(
        `message size ${data.byteLength} is larger than configured readMaxBytes ${this.options.readMaxBytes}`,
        Code.ResourceExhausted,
      );
    }
    try {
      return fromBinary(this.spec.method.input, data);
    } catch (err) {
      throw this.decodingError(err);
    }
  }

  /** A failure to decode: the contract's INVALID_ARGUMENT, unless it is a limit or already a client error. */
  private decodingError(err: unknown): ConnectError {
    const error = ConnectError.from(err, Code.Internal);
    if (error.code !== Code.Internal && error.code !== Code.Unknown) return error;
    this.options.log.debug("request refused while decoding", { procedure: this.procedure(), reason: error.rawMessage });
    return new ConnectError(notAValidMessage(this.spec.method.input.typeName), Code.InvalidArgument);
  }

  private refused(message: string): ConnectError {
    this.options.log.debug("request refused while decoding", { procedure: this.procedure(), reason: message });
    return new ConnectError(message, Code.InvalidArgument);
  }

  private async end(): Promise<void> {
    if (this.decoding) await this.decoding;
    if (this.finished) return;
    if (this.flags >= 0 || this.buffered > 0) {
      return this.fail(new ConnectError("protocol error: incomplete envelope", Code.InvalidArgument));
    }
    if (this.received === 0) return this.fail(this.refused(UNARY_NEEDS_ONE_MESSAGE));
    let output: Uint8Array;
    try {
      const message = await this.method.invoke(this.context, this.message);
      if (this.finished) return;
      const started = performance.now();
      output = await this.encode(message);
      this.options.metrics.phase(this.record, "encode", started);
    } catch (err) {
      return this.fail(err);
    }
    this.answer(output);
  }

  private async encode(message: unknown): Promise<Uint8Array> {
    let bytes: Uint8Array;
    try {
      bytes = toBinary(this.spec.method.output, message as never);
    } catch (err) {
      throw new ConnectError(`serialize binary: ${err instanceof Error ? err.message : String(err)}`, Code.Internal);
    }
    let flags = 0;
    const compression = this.compression.response;
    if (compression && bytes.byteLength >= this.options.compressMinBytes) {
      bytes = await compression.compress(bytes);
      flags = COMPRESSED;
    }
    const frame = Buffer.allocUnsafe(5 + bytes.byteLength);
    frame[0] = flags;
    frame.writeUInt32BE(bytes.byteLength, 1);
    frame.set(bytes, 5);
    return frame;
  }

  private fail(err: unknown): void {
    if (this.finished) return;
    const error =
      err instanceof ConnectError ? err : new ConnectError("internal error", Code.Internal, undefined, undefined, err);
    setTrailerStatus(this.context.responseTrailer, error);
    if (this.record) this.record.code = error.code;
    this.answer(undefined);
  }

  /** Headers, the answer's one message (none after an error), trailers: one write. */
  private answer(frame: Uint8Array | undefined): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.deadline);
    const { stream } = this;
    if (stream.destroyed || stream.closed) return this.options.metrics.finish(this.record, Code.Canceled);
    const trailers = nodeHeaders(this.context.responseTrailer);
    stream.respond(nodeHeaders(this.context.responseHeader, { ":status": 200, ...this.extra }), { waitForTrailers: true });
    stream.once("wantTrailers", () => stream.sendTrailers(trailers));
    if (frame) stream.end(frame);
    else stream.end();
    this.options.metrics.finish(this.record);
  }

  private closed(): void {
    clearTimeout(this.deadline);
    if (this.finished) return;
    this.finished = true;
    const reason = resetError(this.stream.rstCode);
    this.abort.abort(reason);
    if (this.record) this.record.code = reason.code;
    this.options.metrics.finish(this.record);
  }

  private take(n: number): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const taken = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks.length = 0;
    if (rest.length > 0) this.chunks.push(rest);
    this.buffered = rest.length;
    return taken;
  }

  private procedure(): string {
    return `${this.spec.method.parent.typeName}/${this.spec.method.name}`;
  }
}
