// What a client got wrong on the wire, answered in the contract's terms. connect-es reports a
// request it cannot decode as INTERNAL "parse binary: illegal tag: field no 0 wire type 7"
// (an internal code, with parser details) and a unary call without or with two requests as
// UNIMPLEMENTED. The contract says INVALID_ARGUMENT, without internals.
//
// connect-es offers no hook between decoding and the error response, but each of its
// protocol handlers (gRPC, gRPC-Web, Connect) calls context.abort(error) before it serializes
// an error, and runs the request gate before it reads the body. So the gate subscribes to the
// abort, and when the call failed before reaching the interceptors — that is, while the
// request was being read and decoded — it rewrites the error in place. What connect-es
// already answers with INVALID_ARGUMENT (a truncated envelope, bad JSON, a bad timeout) keeps
// its plain message; limits (RESOURCE_EXHAUSTED), deadlines and cancellations keep their
// codes; so does UNIMPLEMENTED for an unknown compression, as the gRPC specification asks.
import { Code, ConnectError, type HandlerContext, type Interceptor } from "@connectrpc/connect";
import type { Logger } from "./log.js";
import { callRecordKey } from "./metrics.js";

const RAW_UNKNOWN_COMPRESSION = /^unknown compression/;

/** The answer to a unary call with no request message, or with two. */
export const UNARY_NEEDS_ONE_MESSAGE = "a unary call takes exactly one request message";

/** The answer to bytes that do not decode as the method's request message. */
export function notAValidMessage(inputType: string): string {
  return `the request is not a valid ${inputType} message`;
}

export interface ProtocolErrors {
  /** For the router's requestGate option. */
  requestGate: (context: HandlerContext) => void;
  /** Must be the first interceptor: marks calls whose request was decoded. */
  decoded: Interceptor;
}

export function protocolErrors(log: Logger): ProtocolErrors {
  const decoded = new WeakSet<AbortSignal>();
  return {
    requestGate(context) {
      const signal = context.signal;
      signal.addEventListener(
        "abort",
        () => {
          if (decoded.has(signal)) return;
          const err: unknown = signal.reason;
          if (!(err instanceof ConnectError)) return;
          const rewritten = rewrite(err, context.method.input.typeName);
          if (rewritten) log.debug("request refused while decoding", { procedure: procedure(context), reason: err.rawMessage });
          // The call never reached the interceptors, which would have counted it.
          const record = context.values.get(callRecordKey);
          if (record) record.code = err.code;
        },
        { once: true },
      );
    },
    decoded: (next) => (req) => {
      decoded.add(req.signal);
      return next(req);
    },
  };
}

/** Rewrites err in place when it is a decoding failure; true when it did. */
function rewrite(err: ConnectError, inputType: string): boolean {
  let message: string;
  if (err.code === Code.Unimplemented && !RAW_UNKNOWN_COMPRESSION.test(err.rawMessage)) {
    message = UNARY_NEEDS_ONE_MESSAGE;
  } else if (err.code === Code.Internal || err.code === Code.Unknown) {
    message = notAValidMessage(inputType);
  } else {
    return false;
  }
  const fields = err as { -readonly [K in "code" | "rawMessage" | "message"]: ConnectError[K] };
  fields.code = Code.InvalidArgument;
  fields.rawMessage = message;
  fields.message = `[invalid_argument] ${message}`;
  return true;
}

function procedure(context: HandlerContext): string {
  return `${context.service.typeName}/${context.method.name}`;
}
