// The metrics port: GET /metrics in Prometheus's text format, nothing else. A port of its own
// (AUTH_METRICS_PORT), not the REST twin's, so a deployment can keep it inside its network:
// what the service counts (login outcomes, per-RPC rates) is for its operators.
import { createServer, type Server } from "node:http";
import type { Registry } from "prom-client";
import type { Logger } from "./log.js";

export function metricsServer(registry: Registry, log: Logger): Server {
  return createServer((req, res) => {
    if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found: GET /metrics\n");
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { "content-type": registry.contentType }).end(text),
      (err: unknown) => {
        log.error("metrics could not be collected", { err });
        res.writeHead(500, { "content-type": "text/plain" }).end("metrics could not be collected\n");
      },
    );
  });
}
