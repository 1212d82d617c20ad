// The RPC port speaks HTTP/1.1 and HTTP/2 with prior knowledge (h2c) on one cleartext
// listener: a browser on http:// can only speak HTTP/1.1 (Connect and gRPC-Web), gRPC clients
// open HTTP/2 without asking. A connection's first bytes tell which: HTTP/2's client preface
// (RFC 9113, 3.4) goes to the HTTP/2 server, anything else to the HTTP/1.1 server. The
// HTTP/1.1 server is the one that listens, so Node's own request and header timeouts, its
// idle-connection tracking and its close() work on it as on any server; the HTTP/2 server
// only takes the connections handed to it.
import type { Server as HttpServer } from "node:http";
import type { Http2Server } from "node:http2";
import type { Socket } from "node:net";

const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

/**
 * Makes http1, once listening, hand every connection that opens with the HTTP/2 preface to
 * http2. A connection that sends nothing within firstBytesMs is closed.
 */
export function shareListener(http1: HttpServer, http2: Http2Server, firstBytesMs: number): void {
  // http.Server serves a connection from its own "connection" listener: keep it, to call it
  // for the connections that are HTTP/1.1, and put the choice in its place.
  const serveHttp1 = http1.listeners("connection") as ((socket: Socket) => void)[];
  if (serveHttp1.length !== 1) throw new Error(`expected one connection listener on the HTTP/1.1 server, found ${serveHttp1.length}`);
  http1.removeAllListeners("connection");
  http1.on("connection", (socket: Socket) => {
    let head: Buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      const n = Math.min(head.length, PREFACE.length);
      const h2 = head.subarray(0, n).equals(PREFACE.subarray(0, n));
      if (h2 && head.length < PREFACE.length) return; // the preface so far: wait for the rest
      socket.off("data", onData);
      socket.off("error", onError);
      socket.setTimeout(0);
      socket.off("timeout", onTimeout);
      // Give the bytes back: both servers read what is buffered before they read the socket.
      socket.pause();
      socket.unshift(head);
      if (h2) {
        http2.emit("connection", socket);
      } else {
        serveHttp1[0]!.call(http1, socket);
        socket.resume();
      }
    };
    const onError = () => socket.destroy();
    const onTimeout = () => socket.destroy();
    socket.on("error", onError);
    socket.setTimeout(firstBytesMs, onTimeout);
    socket.on("data", onData);
  });
}
