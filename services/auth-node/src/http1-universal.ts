// connect-es's universal handlers on an HTTP/1.1 request: what browsers send (Connect and
// gRPC-Web; a page's fetch() over http:// is HTTP/1.1). connect-node's own converters do the
// work; this adds what the HTTP/2 path adds: the port's headers (CORS), the metrics record's
// fallback code, and "Connection: close" once the server drains, so a keep-alive connection
// ends with the call it carries instead of holding the shutdown to its grace period.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Code, ConnectError, type ContextValues } from "@connectrpc/connect";
import type { UniversalHandler } from "@connectrpc/connect/protocol";
import { universalRequestFromNodeRequest, universalResponseToNodeResponse } from "@connectrpc/connect-node";
import type { Logger } from "./log.js";
import { callRecordKey, type Metrics } from "./metrics.js";

export function serveHttp1(
  handler: UniversalHandler,
  req: IncomingMessage,
  res: ServerResponse,
  contextValues: ContextValues,
  log: Logger,
  metrics: Metrics,
  /** Headers the port adds to the answer (CORS). */
  extra: Record<string, string> | undefined,
  draining: AbortSignal,
): void {
  const record = contextValues.get(callRecordKey);
  const request = universalRequestFromNodeRequest(req, res, undefined, contextValues);
  handler(request)
    .then(async (response) => {
      if (res.destroyed) return metrics.finish(record, Code.Canceled);
      for (const name in extra) res.setHeader(name, extra[name]!);
      if (draining.aborted) res.setHeader("connection", "close");
      await universalResponseToNodeResponse(response, res);
      metrics.finish(record, response.status === 415 || response.status === 405 || response.status === 505 ? Code.Unimplemented : Code.Unknown);
    })
    .catch((err: unknown) => {
      const code = ConnectError.from(err).code;
      if (code !== Code.Canceled && code !== Code.Aborted) {
        log.error("could not answer a call", { procedure: `${handler.service.typeName}/${handler.method.name}`, err });
      }
      if (record) record.code = code;
      metrics.finish(record);
      res.destroy();
    });
}
