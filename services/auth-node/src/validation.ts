// Request validation from the schema's buf.validate rules, for every RPC. A request that
// breaks a rule never reaches its handler: the call ends with INVALID_ARGUMENT carrying one
// buf.validate.Violations detail (field paths and rule ids), which gRPC puts into
// grpc-status-details-bin as a google.rpc.Status, so Java, Python and Go clients decode it
// with their standard status helpers.
import type { DescMessage, MessageShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { createValidator, type Validator, violationsToProto } from "@bufbuild/protovalidate";
import type { Tracing } from "./tracing.js";

export function createRequestValidator(): Validator {
  return createValidator();
}

/** Throws INVALID_ARGUMENT with the violations when message breaks a rule of schema. */
export function assertValid<Desc extends DescMessage>(validator: Validator, schema: Desc, message: MessageShape<Desc>): void {
  const result = validator.validate(schema, message);
  if (result.kind === "valid") return;
  if (result.kind === "error") {
    // A rule that cannot be evaluated is a defect of ours, not of the request.
    throw new ConnectError("request validation failed", Code.Internal, undefined, undefined, result.error);
  }
  const [violations, violationsSchema] = violationsToProto(result.error.violations);
  const summary = result.error.violations.map((v) => v.toString()).join("; ");
  throw new ConnectError(`invalid request: ${summary}`, Code.InvalidArgument, undefined, [
    { desc: violationsSchema, value: violations },
  ]);
}

export function validationInterceptor(validator: Validator, tracing: Tracing): Interceptor {
  return (next) => async (req) => {
    if (!req.stream) {
      tracing.child("validate", () => assertValid(validator, req.method.input, req.message));
      return next(req);
    }
    const messages = req.message;
    async function* validated() {
      for await (const message of messages) {
        assertValid(validator, req.method.input, message);
        yield message;
      }
    }
    return next({ ...req, message: validated() });
  };
}
