"""Raw HTTP/2 and HTTP/1.1 for the fuzz suite: every byte of a call is the caller's choice —
the gRPC envelopes, their flags and lengths, the headers, when the stream half-closes or is
reset — which no generated client allows. Built on h2 (python-hyper), a real HTTP/2 protocol
implementation, so the frames themselves are always well-formed HTTP/2."""

from __future__ import annotations

import http.client
import os
import socket
import struct
import sys
import time
import urllib.parse
from dataclasses import dataclass, field

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions

from .huffman import HuffmanEncoder

# After CALL_SECONDS in which the server said nothing, the client asks it for a sign of life (one
# PING per call, so grpc-java's ping policing never counts more than one) and waits on: a loaded
# machine makes a server slow, and this suite judges what a server does, not how fast (speed is
# the benchmarks' job). A call with no end within HANG_SECONDS is a hang, and a problem.
CALL_SECONDS = 5.0
HANG_SECONDS = 60.0
PING_DATA = b"acmefuzz"
# FUZZ_TRACE=1 prints every HTTP/2 event, for finding out what a server did.
TRACE = os.environ.get("FUZZ_TRACE") == "1"


def envelope(payload: bytes, flags: int = 0, length: int | None = None) -> bytes:
    """One gRPC length-prefixed message; `length` lies about the payload when given."""
    return struct.pack(">BI", flags, len(payload) if length is None else length) + payload


@dataclass
class Answer:
    """How a call ended, as the client saw it."""

    http_status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    trailers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    reset_by_server: int | None = None  # the RST_STREAM error code, when the server reset
    reset_by_client: bool = False
    connection_lost: str | None = None
    beside: "Answer | None" = None  # a valid call's answer, open on the same connection meanwhile

    @property
    def grpc_status(self) -> int | None:
        value = self.trailers.get("grpc-status", self.headers.get("grpc-status"))
        return None if value is None else int(value)

    @property
    def grpc_message(self) -> str:
        value = self.trailers.get("grpc-message", self.headers.get("grpc-message", ""))
        return urllib.parse.unquote(value)


class ConnectionLost(Exception):
    pass


class H2Connection:
    """One cleartext HTTP/2 connection (prior knowledge, as gRPC clients use). One call at a time
    is sent, but others may stay open beside it (open / finish): what the server sends on any
    stream goes to that stream's Answer. After a call that broke the connection, the next call
    reconnects."""

    def __init__(self, target: str):
        host, port = target.rsplit(":", 1)
        self.host, self.port = host, int(port)
        self.sock: socket.socket | None = None
        self.conn: h2.connection.H2Connection | None = None
        self.ended: set[int] = set()  # streams of this connection that are over
        self.answers: dict[int, Answer] = {}  # the open streams' answers, by stream id
        self._arm()

    def _arm(self) -> None:
        """Starts a call's time: HANG_SECONDS from now, no PING sent or acknowledged yet."""
        self.deadline = time.monotonic() + HANG_SECONDS
        self.pinged = self.ping_acked = False

    def _connect(self) -> None:
        self.close()
        self.sock = socket.create_connection((self.host, self.port), timeout=CALL_SECONDS)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        config = h2.config.H2Configuration(client_side=True, header_encoding="utf-8",
                                           validate_outbound_headers=False)
        self.conn = h2.connection.H2Connection(config=config)
        self.conn.encoder.huffman_coder = HuffmanEncoder()  # the same bytes, in linear time
        self.ended = set()
        self.answers = {}
        # A large window: the fuzz suite reads every answer, fast.
        self.conn.initiate_connection()
        self.conn.increment_flow_control_window(16 * 1024 * 1024)
        self._flush()

    def close(self) -> None:
        if self.sock is not None:
            try:
                self.sock.close()
            except OSError:
                pass
        self.sock, self.conn = None, None

    def _flush(self) -> None:
        data = self.conn.data_to_send()
        if data:
            self.sock.sendall(data)

    def _receive(self) -> list:
        data = self.sock.recv(1 << 20)
        if not data:
            raise ConnectionLost("the server closed the connection")
        if TRACE:
            _trace_frames(data)
        try:
            events = self.conn.receive_data(data)
        except h2.exceptions.ProtocolError as e:
            # The server broke HTTP/2 (say, a second HEADERS frame on a stream it had ended).
            raise ConnectionLost(f"the server broke HTTP/2: {type(e).__name__} {e}") from e
        self._flush()
        return events

    def _next_events(self) -> list:
        """What the server sends next, within the call's time (see HANG_SECONDS)."""
        while True:
            try:
                return self._receive()
            except (socket.timeout, TimeoutError):
                if time.monotonic() >= self.deadline:
                    life = ("it acknowledged a PING meanwhile" if self.ping_acked
                            else "it answered nothing, not even a PING")
                    raise ConnectionLost(f"the server did not end the call within {HANG_SECONDS:.0f} s ({life})")
                if not self.pinged:
                    self.conn.ping(PING_DATA)
                    self._flush()
                    self.pinged = True

    def settle(self, seconds: float, answer: Answer) -> None:
        """Reads what the server sends within seconds after a call ended — a GOAWAY it sends
        because of that call belongs to that call, not to the next one."""
        if self.conn is None:
            return
        self.sock.settimeout(seconds)
        try:
            while True:
                for event in self._receive():
                    self._take(event)
        except (socket.timeout, TimeoutError):
            pass
        except (ConnectionLost, OSError) as e:
            answer.connection_lost = f"after the call: {e}"
            self.close()
        finally:
            if self.sock is not None:
                self.sock.settimeout(CALL_SECONDS)

    def call(self, path: str, headers: list[tuple[str, str]], body_parts: list[bytes],
             end: str = "half-close") -> Answer:
        """Sends headers, then each body part as DATA; `end` is "half-close", "reset" (the
        client cancels after sending) or "open" (neither: the server must end it)."""
        if self.conn is None:
            self._connect()
        self._arm()
        answer = Answer()
        stream = None
        try:
            stream = self._start(path, headers, answer, end_stream=not body_parts and end == "half-close")
            for i, part in enumerate(body_parts):
                last = i == len(body_parts) - 1
                self._send(stream, part, end_stream=last and end == "half-close")
                if self._ended(stream):  # the server answered, or reset, before reading it all
                    self._abandon(stream)
                    return answer
            if end == "reset":
                self.conn.reset_stream(stream, h2.errors.ErrorCodes.CANCEL)
                self._flush()
                answer.reset_by_client = True
                return answer
            self._await(stream)
            return answer
        except h2.exceptions.StreamClosedError as e:
            # The server closed the stream while the client was still sending: its answer is in.
            if TRACE:
                import traceback
                print(f"  h2: stream closed while sending: {e!r}", file=sys.stderr)
                traceback.print_exc()
            return answer
        except (ConnectionLost, OSError, h2.exceptions.ProtocolError) as e:
            answer.connection_lost = f"{type(e).__name__}: {e}"
            self.close()
            return answer
        finally:
            self.answers.pop(stream, None)

    def open(self, path: str, headers: list[tuple[str, str]], body: bytes) -> tuple[int | None, Answer]:
        """Starts a call beside the ones to come: headers and body sent, the stream left open
        until finish(). The stream is None when the connection broke already."""
        if self.conn is None:
            self._connect()
        self._arm()
        answer = Answer()
        try:
            stream = self._start(path, headers, answer, end_stream=False)
            self._send(stream, body, end_stream=False)
            return stream, answer
        except (ConnectionLost, OSError, h2.exceptions.ProtocolError, h2.exceptions.StreamClosedError) as e:
            answer.connection_lost = f"{type(e).__name__}: {e}"
            self.close()
            return None, answer

    def finish(self, stream: int | None, answer: Answer) -> Answer:
        """Half-closes a call open() started, on this same connection, and waits for its end."""
        if stream is None:
            return answer
        if self.conn is None or answer.connection_lost:
            answer.connection_lost = answer.connection_lost or "the connection was closed meanwhile"
            return answer
        self._arm()
        try:
            if not self._ended(stream):
                self.conn.end_stream(stream)
                self._flush()
            self._await(stream)
        except h2.exceptions.StreamClosedError:
            pass
        except (ConnectionLost, OSError, h2.exceptions.ProtocolError) as e:
            answer.connection_lost = f"{type(e).__name__}: {e}"
            self.close()
        return answer

    def _start(self, path: str, headers: list[tuple[str, str]], answer: Answer, end_stream: bool) -> int:
        stream = self.conn.get_next_available_stream_id()
        self.answers[stream] = answer
        self.conn.send_headers(stream, [(":method", "POST"), (":scheme", "http"),
                                        (":authority", f"{self.host}:{self.port}"),
                                        (":path", path)] + headers, end_stream=end_stream)
        self._flush()
        return stream

    def _await(self, stream: int) -> None:
        while not self._ended(stream):
            for event in self._next_events():
                self._take(event)
        self.answers.pop(stream, None)

    def _abandon(self, stream: int) -> None:
        """Closes the client's side of a stream the server has ended, as a client must."""
        try:
            self.conn.reset_stream(stream, h2.errors.ErrorCodes.CANCEL)
            self._flush()
        except h2.exceptions.StreamClosedError:
            pass

    def _ended(self, stream: int) -> bool:
        return stream in self.ended

    def _take(self, event) -> None:
        if TRACE:
            print(f"  h2 event: {event}", file=sys.stderr)
        if isinstance(event, h2.events.PingAckReceived) and event.ping_data == PING_DATA:
            self.ping_acked = True
        if isinstance(event, h2.events.ConnectionTerminated):
            raise ConnectionLost(f"GOAWAY {event.error_code!r}: {event.additional_data!r}")
        stream = getattr(event, "stream_id", None)
        answer = self.answers.get(stream)
        if answer is None:
            return
        if isinstance(event, h2.events.ResponseReceived):
            answer.headers = {k: v for k, v in event.headers}
            answer.http_status = int(answer.headers.get(":status", 0))
        elif isinstance(event, h2.events.DataReceived):
            answer.body += event.data
            self.conn.acknowledge_received_data(event.flow_controlled_length, stream)
        elif isinstance(event, h2.events.TrailersReceived):
            answer.trailers = {k: v for k, v in event.headers}
        elif isinstance(event, h2.events.StreamEnded):
            self.ended.add(stream)
        elif isinstance(event, h2.events.StreamReset):
            answer.reset_by_server = int(event.error_code)
            self.ended.add(stream)

    def _send(self, stream: int, data: bytes, end_stream: bool) -> None:
        """DATA within flow control: waits for WINDOW_UPDATE, and stops early when the server
        answered and ended the stream meanwhile (it refused the call before reading it)."""
        view = memoryview(data)
        while True:
            if self._ended(stream):
                return
            window = min(self.conn.local_flow_control_window(stream), self.conn.max_outbound_frame_size)
            if window > 0 or (not view and end_stream):
                chunk, view = view[:window], view[window:]
                try:
                    self.conn.send_data(stream, bytes(chunk), end_stream=end_stream and not view)
                except h2.exceptions.StreamClosedError:
                    return
                self._flush()
                if not view:
                    return
            else:
                for event in self._next_events():
                    self._take(event)


def _trace_frames(data: bytes) -> None:
    """Prints the frame headers in data (type, flags, stream); a frame may span reads."""
    at = 0
    while at + 9 <= len(data):
        length = int.from_bytes(data[at:at + 3], "big")
        kind, flags, stream = data[at + 3], data[at + 4], int.from_bytes(data[at + 5:at + 9], "big") & 0x7FFFFFFF
        names = {0: "DATA", 1: "HEADERS", 3: "RST_STREAM", 4: "SETTINGS", 6: "PING", 7: "GOAWAY", 8: "WINDOW_UPDATE"}
        if kind not in (4, 6, 8):
            print(f"  frame {names.get(kind, kind)} stream {stream} flags {flags:#x} length {length}", file=sys.stderr)
        at += 9 + length


def http1(target: str, method: str, path: str, headers: dict[str, str], body: bytes | None) -> Answer:
    """One HTTP/1.1 request on its own connection (the REST twins). HTTP/1.1 has no PING to ask
    for a sign of life, so each read gets the whole hang limit."""
    host, port = target.rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=HANG_SECONDS)
    answer = Answer()
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        answer.http_status = response.status
        answer.headers = {k.lower(): v for k, v in response.getheaders()}
        answer.body = response.read()
    except (OSError, http.client.HTTPException) as e:
        answer.connection_lost = f"{type(e).__name__}: {e}"
    finally:
        conn.close()
    return answer
