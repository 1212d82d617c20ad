// CORS on the RPC port, so a web page of a configured origin can call AuthService over
// Connect and gRPC-Web (browsers cannot speak gRPC). A request is a browser's cross-origin
// request when it carries Origin; then:
//   - an origin not on the list gets no CORS headers and no answer at all: 403, empty, the
//     call never runs (a browser would hide the answer anyway; refusing spares the side
//     effects, such as a failed login counted against the address);
//   - a preflight (OPTIONS with Access-Control-Request-Method) is answered here: 204 with the
//     methods and headers Connect needs, cached by the browser for maxAge seconds — or 403
//     when it asks for a method or a header Connect does not use;
//   - an allowed origin's request runs as any other, and its answer names the origin and
//     exposes the headers Connect and gRPC-Web clients read (grpc-status, grpc-message, …).
// The header lists are connect-es's own (its cors export), plus this service's: the bearer
// token a call sends, the contracts version and Retry-After it answers with.
import { cors as connectCors } from "@connectrpc/connect";
import type { IncomingHttpHeaders } from "node:http2";

export interface CorsSettings {
  /** Origins allowed to call ("https://app.example.com"), or ["*"]; empty: none. */
  allowedOrigins: string[];
  /** Access-Control-Allow-Credentials: true (cookies); never together with "*". */
  allowCredentials: boolean;
  /** How long a browser may cache a preflight's answer. */
  maxAgeSeconds: number;
}

const ALLOWED_METHODS = connectCors.allowedMethods;
const ALLOWED_HEADERS = [...connectCors.allowedHeaders, "Authorization"].map((h) => h.toLowerCase());
const EXPOSED_HEADERS = [...connectCors.exposedHeaders, "Acme-Contracts-Version", "Retry-After"].map((h) => h.toLowerCase());

export type CorsDecision =
  /** Not a cross-origin request: serve it as it is. */
  | { kind: "same" }
  /** Answer 403 with no CORS headers, and do not run the call. */
  | { kind: "refuse"; reason: string }
  /** A preflight the policy accepts: answer 204 with these headers. */
  | { kind: "preflight"; headers: Record<string, string> }
  /** Serve the call, and add these headers to its answer. */
  | { kind: "allow"; headers: Record<string, string> };

/** The origins as configured: scheme://host[:port], lower case, or the one "*". */
export function parseOrigins(raw: string): string[] {
  const origins = raw.split(",").map((o) => o.trim().toLowerCase()).filter((o) => o !== "");
  for (const origin of origins) {
    if (origin !== "*" && !/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/.test(origin)) {
      throw new Error(`"${origin}" is not an origin (scheme://host[:port], no path), nor "*"`);
    }
  }
  if (origins.includes("*") && origins.length > 1) throw new Error(`"*" allows every origin: list nothing beside it`);
  return origins;
}

export function corsPolicy(settings: CorsSettings): (headers: IncomingHttpHeaders) => CorsDecision {
  const allowed = new Set(settings.allowedOrigins);
  const any = allowed.has("*");
  if (any && settings.allowCredentials) throw new Error(`"*" cannot allow credentials: name the origins`);
  const common = (origin: string): Record<string, string> => ({
    "access-control-allow-origin": any ? "*" : origin,
    ...(settings.allowCredentials ? { "access-control-allow-credentials": "true" } : {}),
    // The answer differs by origin: a cache must not hand one origin's to another.
    ...(any ? {} : { vary: "Origin" }),
  });
  return (headers) => {
    const origin = headers.origin;
    if (origin === undefined) return { kind: "same" };
    if (!any && !allowed.has(origin.toLowerCase())) return { kind: "refuse", reason: "origin not allowed" };
    const requestedMethod = headers["access-control-request-method"];
    if (headers[":method"] === "OPTIONS" && requestedMethod !== undefined) {
      if (!ALLOWED_METHODS.includes(requestedMethod)) return { kind: "refuse", reason: `method ${requestedMethod} not allowed` };
      const requested = String(headers["access-control-request-headers"] ?? "")
        .split(",").map((h) => h.trim().toLowerCase()).filter((h) => h !== "");
      const unknown = requested.filter((h) => !ALLOWED_HEADERS.includes(h));
      if (unknown.length > 0) return { kind: "refuse", reason: `headers not allowed: ${unknown.join(", ")}` };
      return {
        kind: "preflight",
        headers: {
          ...common(origin),
          "access-control-allow-methods": ALLOWED_METHODS.join(", "),
          "access-control-allow-headers": ALLOWED_HEADERS.join(", "),
          "access-control-max-age": String(settings.maxAgeSeconds),
          vary: any ? "Access-Control-Request-Method, Access-Control-Request-Headers" : "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
        },
      };
    }
    return { kind: "allow", headers: { ...common(origin), "access-control-expose-headers": EXPOSED_HEADERS.join(", ") } };
  };
}
