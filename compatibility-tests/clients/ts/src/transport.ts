// Connect for Node transports, one per protocol, all over cleartext HTTP/2 (h2c): the
// services listen with prior knowledge HTTP/2, and client/bidi streaming needs HTTP/2.
// Every session manager is remembered so the client can close its connections at the end.
import type { Transport } from "@connectrpc/connect";
import type { Transports } from "./call.js";
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

/** Connect for Node's transports to the servers the environment names, for call(). */
export function nodeTransports(): Transports {
  const targets: Record<string, string> = { "person-spring": "PERSON_TARGET", "auth-node": "AUTH_TARGET" };
  const transports = new Map<string, Transport>();
  return {
    name: "Connect for Node",
    protocols,
    get(server, protocol) {
      const key = `${server} ${protocol}`;
      let t = transports.get(key);
      if (t === undefined) {
        const variable = targets[server];
        const target = variable === undefined ? undefined : process.env[variable];
        if (!target) throw new Error(`unknown server ${server}, or ${variable} is not set`);
        t = transportFor(target, protocol as Protocol);
        transports.set(key, t);
      }
      return t;
    },
  };
}
