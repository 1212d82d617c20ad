"""Prints, in hex, one gRPC health check (grpc.health.v1.Health/Check for the service named by
the first argument; "" for the whole server) as the bytes a client sends on a new clear-text
HTTP/2 connection: the preface, an empty SETTINGS frame, the request's HEADERS (HPACK literals,
no compression state to keep) and its one DATA frame. The balancer sends them as a TCP check
and looks for the answer's message, HealthCheckResponse{status: SERVING}, in what comes back:
HAProxy 2.6's HTTP checks cannot carry the message's zero bytes in a request body."""
import sys


def frame(kind: int, flags: int, stream: int, payload: bytes) -> bytes:
    return len(payload).to_bytes(3, "big") + bytes([kind, flags]) + stream.to_bytes(4, "big") + payload


def literal(index: int, value: str) -> bytes:
    """A header whose name is HPACK static-table entry `index`, not indexed."""
    name = bytes([index]) if index < 15 else bytes([0x0F, index - 15])
    return name + bytes([len(value)]) + value.encode()


def literal_new(name: str, value: str) -> bytes:
    return b"\x00" + bytes([len(name)]) + name.encode() + bytes([len(value)]) + value.encode()


service = sys.argv[1].encode()
message = b"\x0a" + bytes([len(service)]) + service if service else b""
# :method POST (static 3) and :scheme http (static 6), then :path (4), :authority (1),
# content-type (31), te.
headers = (b"\x83\x86" + literal(4, "/grpc.health.v1.Health/Check") + literal(1, "balancer")
           + literal(31, "application/grpc") + literal_new("te", "trailers"))
END_HEADERS, END_STREAM = 0x4, 0x1
request = (b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(0x4, 0, 0, b"")
           + frame(0x1, END_HEADERS, 1, headers)
           + frame(0x0, END_STREAM, 1, b"\x00" + len(message).to_bytes(4, "big") + message))
print(request.hex())
