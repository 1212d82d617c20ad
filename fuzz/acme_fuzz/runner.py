"""Sends a Case to the running service, as the case says, byte for byte: the framing, the
headers, the end of the stream. Fills the name slots with names unique to the run and keeps
them, so the suite can look for people that a failed call must not have stored."""

from __future__ import annotations

import gzip
import itertools
import uuid
import zlib
from dataclasses import dataclass

import grpc
from acme.auth.v1 import auth_service_pb2 as auth
from acme.person.v1 import person_pb2
from acme.person.v1 import person_service_pb2 as ps
from acme.person.v1 import person_service_pb2_grpc as ps_grpc

from . import inputs
from .cases import SERVICES, Case
from .wire import Answer, H2Connection, envelope, http1


# Framings the server's transport refuses by itself, from a frame header or the end of the
# stream, while the service may be working on the call's earlier messages.
TRANSPORT_REFUSALS = {"over-the-limit-length", "lying-length", "reserved-flags", "compressed-without-encoding"}


@dataclass(frozen=True)
class Limits:
    """The declared limits of a service (its README), which the framing cases probe."""

    message_bytes: int
    header_list_bytes: int


LIMITS = {
    "person-spring": Limits(message_bytes=9 * 1024 * 1024, header_list_bytes=16 * 1024),
    "auth-node": Limits(message_bytes=64 * 1024, header_list_bytes=16 * 1024),
}


def _gzip_zeros(size: int) -> bytes:
    """gzip of size zero bytes, compressed a megabyte at a time. Z_RLE: only runs of one byte,
    which is all zeros are, at deflate's best ratio (260 KB for 256 MiB) in half the CPU of a
    full search; every worker makes its own as it starts."""
    z = zlib.compressobj(9, zlib.DEFLATED, 31, 9, zlib.Z_RLE)  # 31: the gzip container
    mib = bytes(1024 * 1024)
    out = [z.compress(mib) for _ in range(size // len(mib))]
    return b"".join(out) + z.flush()


class Runner:
    def __init__(self, service: str, grpc_target: str, rest_target: str, token: str, run_id: str):
        self.service, self.token, self.run_id = service, token, run_id
        self.grpc = H2Connection(grpc_target)
        self.grpc_target = grpc_target
        self.rest_target = rest_target
        self.limits = LIMITS[service]
        self._names = itertools.count()
        # A bomb of zeros (256 MiB inflated), and one that inflates to a well-formed message
        # over the limit; made once per run.
        self.zero_bomb = _gzip_zeros(256 * 1024 * 1024)
        self.message_bomb = gzip.compress(_oversize_message(self.limits.message_bytes), 9)
        self.beside = self._valid_call()

    def close(self) -> None:
        self.grpc.close()

    def fill_names(self, case: Case) -> None:
        """Gives each name slot in the case's messages a name unique to the run, the same length."""
        slot = inputs.NAME_SLOT.encode()
        messages = []
        for m in case.raw():
            while slot in m:
                name = f"fz{self.run_id}{next(self._names):0{len(slot) - 2 - len(self.run_id)}d}"
                assert len(name) == len(slot)
                m = m.replace(slot, name.encode(), 1)
                case.names.append(name)
            messages.append(m.hex())
        case.messages = messages

    def send(self, case: Case) -> Answer:
        """Sends the case; a gRPC (or gRPC-Web, Connect) case with a valid call open beside it on
        the same connection, finished after it: one bad call must cost only itself."""
        if case.transport == "rest":
            return self._rest(case)
        path, headers, message = self.beside
        stream, beside = self.grpc.open(path, headers, envelope(message))
        answer = self._send(case)
        answer.beside = self.grpc.finish(stream, beside)
        return answer

    def _valid_call(self) -> tuple[str, list[tuple[str, str]], bytes]:
        """The valid call kept open beside every case: a unary call the service answers OK once
        it half-closes (person-spring: GetPerson of a person stored now; auth-node:
        ValidateToken of the runner's own token)."""
        headers = [("content-type", "application/grpc"), ("te", "trailers"), ("authorization", f"Bearer {self.token}")]
        if self.service == "auth-node":
            return (f"/{SERVICES[self.service]}/ValidateToken", headers,
                    auth.ValidateTokenRequest(token=self.token).SerializeToString())
        # With a real client and a patient deadline: the service's first call may be slow.
        with grpc.insecure_channel(self.grpc_target) as channel:
            stored = ps_grpc.PersonServiceStub(channel).RegisterPerson(
                ps.RegisterPersonRequest(request_id=str(uuid.uuid4()),
                                         person=person_pb2.Person(name=f"fz{self.run_id}beside", age=30)),
                metadata=(("authorization", f"Bearer {self.token}"),), timeout=60)
        return (f"/{SERVICES[self.service]}/GetPerson", headers,
                ps.GetPersonRequest(id=stored.person.id).SerializeToString())

    def _send(self, case: Case) -> Answer:
        path = f"/{SERVICES[case.service]}/{case.rpc}"
        headers = self._auth_headers(case)
        if case.transport == "connect-proto":
            return self.grpc.call(path, [("content-type", "application/proto")] + headers, case.raw())
        if case.transport == "connect-json":
            return self.grpc.call(path, [("content-type", "application/json")] + headers, case.raw())
        content_type = "application/grpc" if case.transport == "grpc" else "application/grpc-web+proto"
        headers = [("content-type", content_type), ("te", "trailers")] + headers
        if case.end == "open":  # neither half-close nor reset: the deadline ends it
            headers.append(("grpc-timeout", "50m"))
        parts, extra = self._frames(case)
        answer = self.grpc.call(path, headers + extra, parts, end=case.end)
        if case.framing in TRANSPORT_REFUSALS and not answer.connection_lost:
            self.grpc.settle(0.01, answer)
        return answer

    def _frames(self, case: Case) -> tuple[list[bytes], list[tuple[str, str]]]:
        """The DATA of a gRPC call, and headers the framing needs."""
        messages, framing = case.raw(), case.framing
        if framing == "gzip":
            return [envelope(gzip.compress(m), flags=1) for m in messages], [("grpc-encoding", "gzip")]
        if framing == "gzip-bomb":
            bomb = self.zero_bomb if len(messages) % 2 == 0 else self.message_bomb
            return [envelope(m) for m in messages] + [envelope(bomb, flags=1)], [("grpc-encoding", "gzip")]
        if framing == "compressed-without-encoding":
            return [envelope(gzip.compress(m), flags=1) for m in messages] or [envelope(b"", flags=1)], []
        if framing == "unknown-encoding":
            return [envelope(m, flags=1) for m in messages], [("grpc-encoding", "snappy-x")]
        if framing == "lying-length":  # the last envelope promises more than the stream holds
            parts = [envelope(m) for m in messages] or [b""]
            return parts[:-1] + [envelope(b"\x0a\x02hi", length=64)], []
        if framing == "over-the-limit-length":
            return [envelope(m) for m in messages] + [envelope(b"\x0a", length=self.limits.message_bytes + 1)], []
        if framing == "reserved-flags":
            return [envelope(m, flags=0x02) for m in messages], []
        return [envelope(m) for m in messages], []

    def _auth_headers(self, case: Case) -> list[tuple[str, str]]:
        value = {
            "valid": f"Bearer {self.token}",
            "none": None,
            "garbage": "Bearer \x7fgarbage",
            "longest-allowed": "Bearer " + "t" * 8192,
            "over-the-header-limit": "Bearer " + "t" * (self.limits.header_list_bytes + 1024),
            "far-over-the-header-limit": "Bearer " + "t" * (64 * 1024),
        }[case.auth]
        return [] if value is None else [("authorization", value)]

    def _rest(self, case: Case) -> Answer:
        method, route = case.rpc.split()
        headers = {k: v for k, v in self._auth_headers(case)}
        if method == "GET":
            from urllib.parse import quote
            return http1(self.rest_target, "GET", route.replace("{id}", quote(case.path_id, safe="")), headers, None)
        if case.content_type:
            headers["Content-Type"] = case.content_type
        return http1(self.rest_target, method, route, headers, case.raw()[0])


def _oversize_message(limit: int) -> bytes:
    """A well-formed message of any request type a little larger than the limit: one unknown
    length-delimited field (number 99) of zeros. A parser reads all of it, so it reaches the
    limit, and it compresses to almost nothing."""
    size = limit + 1024
    return inputs.varint(99 << 3 | 2) + inputs.varint(size) + bytes(size)
