// A maximum age for the RPC port's HTTP/2 connections. A gRPC client keeps one connection for
// as long as it lives, so behind a balancer that routes connections (or a Kubernetes Service)
// it stays on the replica it first reached, and new replicas get no calls. After its age, a
// connection is sent GOAWAY: the client opens a new one, possibly to another replica, for its
// next calls, and the calls in flight on the old one finish — for at most the grace, then the
// connection is closed. The age varies by ±10 %, as grpc-java's does, so connections opened
// together do not all leave together. HTTP/1.1 connections carry one call at a time and are
// balanced per call already.
import type { ServerHttp2Session } from "node:http2";

export interface ConnectionAge {
  /** 0: connections live as long as clients keep them. */
  maxAgeMs: number;
  graceMs: number;
}

export function limitConnectionAge(session: ServerHttp2Session, { maxAgeMs, graceMs }: ConnectionAge): void {
  if (maxAgeMs <= 0) return;
  let graceTimer: NodeJS.Timeout | undefined;
  const ageTimer = setTimeout(() => {
    session.close(); // GOAWAY; the session ends when its last stream does
    graceTimer = setTimeout(() => session.destroy(), graceMs);
  }, maxAgeMs * (0.9 + Math.random() * 0.2));
  session.once("close", () => {
    clearTimeout(ageTimer);
    clearTimeout(graceTimer);
  });
}
