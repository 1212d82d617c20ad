// The interceptors every RPC runs through, outermost first: every answer names the contracts
// version; the call's server span (tracing.ts) sees the final status, as the access log does; metrics record it (and, around validation,
// the validate and handle phases); the error boundary turns unexpected exceptions into a bare
// INTERNAL; validation runs before any handler. The REST twin's calls pass through none of
// them: rest.ts does the same for them itself.
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import type { Validator } from "@bufbuild/protovalidate";
import type { Logger } from "./log.js";
import { callRecordKey, type Metrics } from "./metrics.js";
import { validationInterceptor } from "./validation.js";
import { CONTRACTS_VERSION, CONTRACTS_VERSION_HEADER } from "./contracts-version.js";
import type { Tracing } from "./tracing.js";

export function interceptors(log: Logger, validator: Validator, metrics: Metrics, tracing: Tracing): Interceptor[] {
  return [
    contractsVersion,
    ...tracing.interceptors(),
    accessLog(log),
    ...metrics.outcome(),
    errorBoundary(log),
    ...metrics.phased(validationInterceptor(validator, tracing)),
  ];
}

/** The contracts version in the response headers, or in an error's metadata. */
export const contractsVersion: Interceptor = (next) => async (req) => {
  try {
    const res = await next(req);
    res.header.set(CONTRACTS_VERSION_HEADER, CONTRACTS_VERSION);
    return res;
  } catch (err) {
    const error = ConnectError.from(err);
    error.metadata.set(CONTRACTS_VERSION_HEADER, CONTRACTS_VERSION);
    throw error;
  }
};

/** One line per call: procedure, protocol, status code, duration. No messages, no metadata. */
export function accessLog(log: Logger): Interceptor {
  return (next) => async (req) => {
    const record = req.contextValues.get(callRecordKey);
    const started = record?.started ?? performance.now();
    const fields = {
      procedure: record ? `${record.service}/${record.method}` : `${req.service.typeName}/${req.method.name}`,
      // The transport's word for it; the media type where no transport said (in-memory tests).
      protocol: record?.protocol ?? req.header.get("content-type"),
    };
    const done = (code: string) => log.info("rpc", { ...fields, code, ms: Math.round((performance.now() - started) * 10) / 10 });
    try {
      const res = await next(req);
      if (!res.stream) done("ok");
      else log.debug("rpc stream opened", fields);
      return res;
    } catch (err) {
      done(Code[ConnectError.from(err).code] ?? "unknown");
      throw err;
    }
  };
}

/** Exceptions that are not ConnectErrors are bugs or broken infrastructure: log them in full
 * and tell the caller only INTERNAL, so no internals (SQL, paths, stack) leak. */
export function errorBoundary(log: Logger): Interceptor {
  const hide = (err: unknown, procedure: () => string): unknown => {
    if (err instanceof ConnectError) return err;
    log.error("unexpected error", { procedure: procedure(), err });
    return new ConnectError("internal error", Code.Internal);
  };
  return (next) => async (req) => {
    const procedure = () => `${req.service.typeName}/${req.method.name}`;
    try {
      const res = await next(req);
      if (!res.stream) return res;
      const messages = res.message;
      async function* guarded() {
        try {
          yield* messages;
        } catch (err) {
          throw hide(err, procedure);
        }
      }
      return { ...res, message: guarded() };
    } catch (err) {
      throw hide(err, procedure);
    }
  };
}
