// Connect for Node transports, one per protocol, all over cleartext HTTP/2 (h2c): the
// services listen with prior knowledge HTTP/2, and client/bidi streaming needs HTTP/2.
// Every session manager is remembered so the client can close its connections at the end.
import type { Transport } from "@connectrpc/connect";
import {
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
  Http2SessionManager,
} from "@connectrpc/connect-node";

export const protocols = ["grpc", "grpc-web", "connect"] as const;
export type Protocol = (typeof protocols)[number];

const managers: Http2SessionManager[] = [];

export function transportFor(target: string, protocol: Protocol): Transport {
  const baseUrl = `http://${target}`;
  const sessionManager = new Http2SessionManager(baseUrl);
  managers.push(sessionManager);
  const options = { baseUrl, httpVersion: "2" as const, sessionManager };
  if (protocol === "grpc") return createGrpcTransport(options);
  if (protocol === "grpc-web") return createGrpcWebTransport(options);
  return createConnectTransport(options);
}

export function closeTransports(): void {
  for (const m of managers) m.abort();
}
