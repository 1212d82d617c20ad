// The REST/JSON twin on HTTP/1.1, for side-by-side comparisons with the gRPC port:
//   POST /api/login     {"username","password"} → {"token","expiresAt"}
//   POST /api/validate  {"token"}               → {"subject","roles","expiresAt"}
//   GET  /.well-known/jwks.json                 → the token verification key
//   GET  /healthz                               → 200 while serving, 503 once shutting down
// Bodies use the proto3 JSON mapping of the same messages, requests pass the same
// validation, and calls run the same service implementation as the RPCs. Errors use the
// Connect protocol's JSON error shape and HTTP status mapping, plus Retry-After.
import { CONTRACTS_VERSION, CONTRACTS_VERSION_HEADER } from "./contracts-version.js";
import type { IncomingMessage, ServerResponse } from "node:http";
import { create, type DescMessage, fromJson, type MessageShape, toJson } from "@bufbuild/protobuf";
import { Code, ConnectError, createContextValues, createHandlerContext, type HandlerContext } from "@connectrpc/connect";
import { codeToHttpStatus, errorToJson } from "@connectrpc/connect/protocol-connect";
import {
  AuthService,
  LoginRequestSchema,
  LoginResponseSchema,
  ValidateTokenRequestSchema,
  ValidateTokenResponseSchema,
} from "@acme/contracts/acme/auth/v1/auth_service_pb";
import type { App } from "./app.js";
import { clientAddressKey } from "./context.js";
import { ServingStatus } from "./health.js";
import type { Logger } from "./log.js";
import { type CallRecord, OK } from "./metrics.js";
import { jwks } from "./signing-key.js";
import { answered } from "./transport-limits.js";
import { assertValid } from "./validation.js";

// Not a ConnectError subclass: ConnectError's instanceof accepts any ConnectError-shaped
// object, so a subclass could not be told apart from the others.
class BodyTooLargeError extends Error {}

/** A route: the request's text in, the answer's JSON text out, each phase timed. */
type Route = (text: string, ctx: HandlerContext, record: CallRecord | undefined) => Promise<string>;

export function restHandler(app: App, maxBodyBytes: number, log: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  const { metrics } = app;
  const unary = <I extends DescMessage, O extends DescMessage>(
    input: I,
    output: O,
    impl: (req: MessageShape<I>, ctx: HandlerContext) => unknown,
  ): Route => {
    return async (text, ctx, record) => {
      let started = performance.now();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new ConnectError("request body is not valid JSON", Code.InvalidArgument);
      }
      let message: MessageShape<I>;
      try {
        message = fromJson(input, body as never);
      } catch (err) {
        throw new ConnectError(`invalid request body: ${(err as Error).message}`, Code.InvalidArgument);
      }
      metrics.phase(record, "decode", started);
      started = performance.now();
      app.tracing.child("validate", () => assertValid(app.validator, input, message));
      metrics.phase(record, "validate", started);
      started = performance.now();
      let answer: unknown;
      try {
        answer = await impl(message, ctx);
      } finally {
        metrics.phase(record, "handle", started);
      }
      started = performance.now();
      const json = JSON.stringify(toJson(output, create(output, answer as never)));
      metrics.phase(record, "encode", started);
      return json;
    };
  };
  const routes = new Map<string, { method: (typeof AuthService.method)[keyof typeof AuthService.method]; run: Route }>([
    ["/api/login", { method: AuthService.method.login, run: unary(LoginRequestSchema, LoginResponseSchema, app.auth.login) }],
    [
      "/api/validate",
      {
        method: AuthService.method.validateToken,
        run: unary(ValidateTokenRequestSchema, ValidateTokenResponseSchema, app.auth.validateToken),
      },
    ],
  ]);

  return (req, res) => {
    const started = performance.now();
    const path = (req.url ?? "/").split("?")[0]!;
    const route = routes.get(path);
    const record = route ? metrics.start(AuthService.typeName, route.method.name, "rest") : undefined;
    // An answer out before the body has been read whole (a 413) is the connection's only one.
    answered(req, res);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}, code: Code = Code.Unknown) => {
      res.writeHead(status, { "content-type": "application/json", [CONTRACTS_VERSION_HEADER]: CONTRACTS_VERSION, ...headers })
        .end(typeof body === "string" ? body : JSON.stringify(body));
      if (record) {
        record.code = code;
        metrics.finish(record);
      }
      // Health probes every few seconds would drown the log at info.
      (path === "/healthz" ? log.debug : log.info)("http", {
        method: req.method,
        path,
        status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      });
    };
    const tooLarge = (headers: Record<string, string> = {}) =>
      send(413, { code: "resource_exhausted", message: `request body is larger than ${maxBodyBytes} bytes` }, headers, Code.ResourceExhausted);
    const fail = (err: unknown) => {
      if (err instanceof BodyTooLargeError) return tooLarge();
      const error = err instanceof ConnectError ? err : new ConnectError("internal error", Code.Internal);
      if (!(err instanceof ConnectError)) log.error("unexpected error", { path, err });
      const retryAfter = error.metadata.get("retry-after");
      send(codeToHttpStatus(error.code), errorToJson(error, undefined), retryAfter ? { "retry-after": retryAfter } : {}, error.code);
    };

    if (req.method === "GET" && path === "/.well-known/jwks.json") {
      return send(200, jwks(app.signingKey), { "cache-control": "max-age=300" });
    }
    if (req.method === "GET" && path === "/healthz") {
      const serving = app.health.get("") === ServingStatus.SERVING;
      return send(serving ? 200 : 503, { status: serving ? "SERVING" : "NOT_SERVING" });
    }
    if (!route) return send(404, { code: "not_found", message: `no route for ${path}` });
    if (req.method !== "POST") return send(405, { code: "unimplemented", message: "use POST" }, { allow: "POST" }, Code.Unimplemented);
    if (!isUtf8Json(req.headers["content-type"])) {
      return send(415, { code: "unimplemented", message: 'content-type must be "application/json" (UTF-8)' }, {}, Code.Unimplemented);
    }

    if (Number(req.headers["content-length"] ?? 0) > maxBodyBytes) {
      // Announced too large: answer at once and close, instead of reading what was announced.
      return tooLarge({ connection: "close" });
    }
    const rpc = { service: AuthService.typeName, method: route.method.name };
    const traceparent = req.headers["traceparent"];
    const codeOf = (err: unknown) =>
      err instanceof BodyTooLargeError ? Code.ResourceExhausted : err instanceof ConnectError ? err.code : Code.Internal;
    const call = () =>
      readBody(req, maxBodyBytes).then((text) => {
        const ctx = createHandlerContext({
          service: AuthService,
          method: route.method,
          protocolName: "rest",
          requestMethod: "POST",
          url: path,
          requestHeader: req.headers as Record<string, string>,
          contextValues: createContextValues().set(clientAddressKey, req.socket.remoteAddress ?? "unknown"),
        });
        return route.run(text, ctx, record);
      });
    app.tracing
      .serve(rpc, "rest", typeof traceparent === "string" ? traceparent : undefined, started, call, codeOf)
      .then((json) => send(200, json, {}, OK), fail);
  };
}

/** application/json, with no charset or UTF-8: other charsets would turn bytes into other text. */
function isUtf8Json(contentType: string | undefined): boolean {
  const [type, ...params] = (contentType ?? "").split(";").map((p) => p.trim().toLowerCase());
  if (type !== "application/json") return false;
  return params.every((p) => !p.startsWith("charset=") || p === "charset=utf-8" || p === 'charset="utf-8"');
}

function readBody(req: IncomingMessage, maxBodyBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is read and dropped, so the error response still arrives.
      if (size > maxBodyBytes) {
        reject(new BodyTooLargeError());
      } else {
        chunks.push(chunk);
      }
    });
    req.on("end", () => {
      try {
        // Fatal: invalid UTF-8 is refused, not quietly turned into U+FFFD.
        resolve(new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks)));
      } catch {
        reject(new ConnectError("request body is not valid UTF-8", Code.InvalidArgument));
      }
    });
    // The connection closed before the body ended: the client left, or was cut at the arrival
    // limit (408 from answerClientError). The client's doing, not an error of ours.
    req.on("error", (err: NodeJS.ErrnoException) =>
      reject(req.destroyed ? new ConnectError(`the request did not arrive whole (${err.message})`, Code.Canceled) : err),
    );
  });
}
