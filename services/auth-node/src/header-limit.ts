// The header list limit of the RPC port. Node advertises SETTINGS_MAX_HEADER_LIST_SIZE but
// does not enforce it on what it receives (a 40 KB header passed with a 16 KB setting), so it
// is checked here, before any protocol handler sees the request. The size is counted as
// HTTP/2 counts it: each field's name and value plus 32 octets.
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";

type Handler = (req: Http2ServerRequest, res: Http2ServerResponse) => void;

export function limitHeaderList(limit: number, handler: Handler): Handler {
  return (req, res) => {
    const size = headerListSize(req.rawHeaders);
    if (size <= limit) return handler(req, res);
    const message = `request headers are ${size} bytes, more than the limit of ${limit}`;
    if (/^application\/grpc/.test(req.headers["content-type"] ?? "")) {
      // gRPC and gRPC-Web: a trailers-only response, RESOURCE_EXHAUSTED.
      res.writeHead(200, { "content-type": req.headers["content-type"]!, "grpc-status": "8", "grpc-message": encodeURIComponent(message) });
      res.end();
    } else {
      // Connect and anything else: HTTP 431 with the Connect protocol's error body.
      res.writeHead(431, { "content-type": "application/json" });
      res.end(JSON.stringify({ code: "resource_exhausted", message }));
    }
  };
}

function headerListSize(raw: string[]): number {
  let size = 0;
  for (let i = 0; i + 1 < raw.length; i += 2) size += raw[i]!.length + raw[i + 1]!.length + 32;
  return size;
}
