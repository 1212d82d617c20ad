"""Run by tests/scale.sh: sends what no client should to each of the balancer's ports and prints
one line per attempt with what came back. Fails (exit 1) when the balancer passed something on as
if it were a call (a 2xx answer) or when a port stopped answering a normal request afterwards.

  python3 scale-garbage.py PORT…   (the balancer's host ports, all on 127.0.0.1)"""
import os
import socket
import sys

ATTEMPTS = {
    "random bytes": os.urandom(4096),
    "a request line of garbage": b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 GARBAGE\r\n\r\n",
    # HTTP/1.0 allows a request without Host; a replica behind must not fall over on it.
    "HTTP/1.0 without Host": b"POST /acme.auth.v1.AuthService/Login HTTP/1.0\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}",
    "an HTTP/2 preface then a frame of garbage": b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x04\x04\x00\x00\x00\x00\x00" + os.urandom(64),
    "a header of 200 KB": b"GET / HTTP/1.1\r\nhost: x\r\nx-big: " + b"a" * 200_000 + b"\r\n\r\n",
    "a negative content-length": b"POST / HTTP/1.1\r\nhost: x\r\ncontent-length: -5\r\n\r\nhello",
}


def send(port: int, payload: bytes) -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        try:
            s.sendall(payload)
            s.shutdown(socket.SHUT_WR)
        except OSError as e:  # the balancer may close before it has read everything
            return f"closed while sending ({e.__class__.__name__})"
        answer = b""
        try:
            while chunk := s.recv(65536):
                answer += chunk
        except OSError as e:
            return f"closed ({e.__class__.__name__})" if not answer else first_line(answer)
        return first_line(answer) if answer else "closed without an answer"


def first_line(answer: bytes) -> str:
    if answer.startswith(b"HTTP/"):
        return answer.split(b"\r\n", 1)[0].decode("latin-1")
    return f"{len(answer)} bytes of HTTP/2 frames" if answer[3:4] in (b"\x04", b"\x07") else f"{len(answer)} bytes"


failed = False
for port in map(int, sys.argv[1:]):
    for name, payload in ATTEMPTS.items():
        outcome = send(port, payload)
        passed_on = outcome.startswith("HTTP/") and outcome.split(" ")[1].startswith("2")
        failed |= passed_on
        print(f"  port {port}: {name}: {outcome}{'   <- PASSED ON' if passed_on else ''}")
sys.exit(1 if failed else 0)
