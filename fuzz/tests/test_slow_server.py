"""A slow server is not a broken one: the client waits on while the server answers a PING, and
calls a hang only at the hang limit. A real HTTP/2 server (h2, server side) on a local socket,
with the limits shortened so the test takes about a second."""

import socket
import threading
import time
import unittest
from unittest import mock

import h2.config
import h2.connection
import h2.events

from acme_fuzz import wire


def serve(listener: socket.socket, answer_after: float | None) -> None:
    """Accepts one connection; answers PINGs at once (h2 does), and each request after
    answer_after seconds with grpc-status 0, or never when answer_after is None."""
    sock, _ = listener.accept()
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False))
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    due: dict[int, float] = {}
    sock.settimeout(0.02)
    try:
        while True:
            try:
                data = sock.recv(65536)
                if not data:
                    return
                for event in conn.receive_data(data):
                    if isinstance(event, h2.events.StreamEnded) and answer_after is not None:
                        due[event.stream_id] = time.monotonic() + answer_after
            except TimeoutError:
                pass
            for stream, at in list(due.items()):
                if time.monotonic() >= at:
                    conn.send_headers(stream, [(":status", "200"), ("content-type", "application/grpc")])
                    conn.send_headers(stream, [("grpc-status", "0")], end_stream=True)
                    del due[stream]
            out = conn.data_to_send()
            if out:
                sock.sendall(out)
    except OSError:
        return
    finally:
        sock.close()


class SlowServerTest(unittest.TestCase):
    def call(self, answer_after: float | None) -> wire.Answer:
        listener = socket.create_server(("127.0.0.1", 0))
        self.addCleanup(listener.close)
        threading.Thread(target=serve, args=(listener, answer_after), daemon=True).start()
        connection = wire.H2Connection(f"127.0.0.1:{listener.getsockname()[1]}")
        self.addCleanup(connection.close)
        return connection.call("/acme.Test/Call", [("content-type", "application/grpc")], [b"\0\0\0\0\0"])

    @mock.patch.object(wire, "HANG_SECONDS", 2.0)
    @mock.patch.object(wire, "CALL_SECONDS", 0.1)
    def test_an_answer_slower_than_the_quiet_interval_is_an_answer(self):
        answer = self.call(answer_after=0.5)
        self.assertIsNone(answer.connection_lost)
        self.assertEqual(answer.grpc_status, 0)

    @mock.patch.object(wire, "HANG_SECONDS", 0.6)
    @mock.patch.object(wire, "CALL_SECONDS", 0.1)
    def test_a_call_never_ended_is_a_hang_at_the_limit_and_says_the_server_was_alive(self):
        started = time.monotonic()
        answer = self.call(answer_after=None)
        self.assertGreaterEqual(time.monotonic() - started, 0.6)
        self.assertIn("did not end the call within", answer.connection_lost)
        self.assertIn("acknowledged a PING", answer.connection_lost)


if __name__ == "__main__":
    unittest.main()
