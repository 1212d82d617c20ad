// The metrics port: GET /metrics in Prometheus's text format, and GET /healthz for liveness. A
// port of its own (AUTH_METRICS_PORT), not the REST twin's, so a deployment can keep it inside
// its network: what the service counts (login outcomes, per-RPC rates) is for its operators.
// Liveness asks here because this port has no connection limit: an RPC port full to
// AUTH_MAX_CONNECTIONS refuses a probe's connection too, and a liveness probe there would have
// the replica restarted (every client's connection cut) where readiness only takes it out of
// rotation. /healthz says the process answers: its event loop runs.
import { createServer, type Server } from "node:http";
import type { Registry } from "prom-client";
import type { Logger } from "./log.js";

export function metricsServer(registry: Registry, log: Logger): Server {
  return createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (req.method === "GET" && path === "/healthz") {
      res.writeHead(200, { "content-type": "text/plain" }).end("ok\n");
      return;
    }
    if (req.method !== "GET" || path !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found: GET /metrics, GET /healthz\n");
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
