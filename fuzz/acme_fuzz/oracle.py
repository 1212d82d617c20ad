"""What every answer must satisfy: a status code the contract documents for that call and that
situation; INVALID_ARGUMENT exactly when a request message cannot be decoded; no internals in
any message. Each rule says why, so a failure explains itself."""

from __future__ import annotations

import json
import re

from collections.abc import Callable

from .runner import LIMITS

from .cases import Case
from .wire import Answer

OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND, ALREADY_EXISTS = 0, 1, 2, 3, 4, 5, 6
PERMISSION_DENIED, RESOURCE_EXHAUSTED, UNIMPLEMENTED, INTERNAL, UNAUTHENTICATED = 7, 8, 12, 13, 16
NAMES = {0: "OK", 1: "CANCELLED", 2: "UNKNOWN", 3: "INVALID_ARGUMENT", 4: "DEADLINE_EXCEEDED",
         5: "NOT_FOUND", 6: "ALREADY_EXISTS", 7: "PERMISSION_DENIED", 8: "RESOURCE_EXHAUSTED",
         9: "FAILED_PRECONDITION", 10: "ABORTED", 11: "OUT_OF_RANGE", 12: "UNIMPLEMENTED", 13: "INTERNAL",
         14: "UNAVAILABLE", 15: "DATA_LOSS", 16: "UNAUTHENTICATED"}
CONNECT_CODES = {name.lower(): code for code, name in NAMES.items()}
# HTTP/2 RST_STREAM error codes.
RST_NO_ERROR, RST_CANCEL, RST_ENHANCE_YOUR_CALM = 0, 8, 11

# What each RPC may answer once its request was decoded (the contracts' comments), besides the
# codes of what a client gets wrong on the wire, which every RPC may answer.
DECODED = {
    "RegisterPerson": {OK, INVALID_ARGUMENT, UNAUTHENTICATED, ALREADY_EXISTS},
    "GetPerson": {OK, INVALID_ARGUMENT, UNAUTHENTICATED, NOT_FOUND},
    "ListPeople": {OK, INVALID_ARGUMENT, UNAUTHENTICATED},
    # Not RESOURCE_EXHAUSTED: the limit of RegisterPeople streams open at once is in the
    # thousands, and the suite never has more than a few open (person-spring's
    # RegisterPeopleLimitTest proves the limit and what it answers).
    "RegisterPeople": {OK, INVALID_ARGUMENT, UNAUTHENTICATED, ALREADY_EXISTS},
    "SyncPeople": {OK, INVALID_ARGUMENT, UNAUTHENTICATED},
    "Login": {OK, INVALID_ARGUMENT, UNAUTHENTICATED, RESOURCE_EXHAUSTED},
    "ValidateToken": {OK, INVALID_ARGUMENT, UNAUTHENTICATED},
    "CreateUser": {OK, INVALID_ARGUMENT, UNAUTHENTICATED, PERMISSION_DENIED, ALREADY_EXISTS},
    "DisableUser": {OK, INVALID_ARGUMENT, UNAUTHENTICATED, PERMISSION_DENIED, NOT_FOUND},
    "ListUsers": {OK, INVALID_ARGUMENT, UNAUTHENTICATED, PERMISSION_DENIED},
}
# The wire: undecodable (INVALID_ARGUMENT), over a limit (RESOURCE_EXHAUSTED), an unknown
# compression (UNIMPLEMENTED). INTERNAL only for framing errors grpc-java's transport answers
# itself, before any message is decoded, as the gRPC specification asks (a truncated frame,
# reserved flag bits, a compressed frame without grpc-encoding); the contract documents it.
WIRE = {INVALID_ARGUMENT, RESOURCE_EXHAUSTED, UNIMPLEMENTED}
FRAMING_ERRORS = {"lying-length", "compressed-without-encoding", "reserved-flags"}
OVER_HEADER_LIMIT = {"over-the-header-limit", "far-over-the-header-limit"}

# Parser, stack, class or SQL details a message must never show. Case-sensitive: messages may
# echo a caller's own lower-case username ("user \"fzeof\" not found") and that is no internal.
INTERNALS = re.compile(
    r"illegal tag|[Ww]ire ?type|premature|\bEOF\b|Exception|Error:|\bat [\w.$]+\(|\.(java|js|ts):\d+|"
    r"node_modules|com\.acme\.[a-z.]+[A-Z]|java\.(lang|util|io|sql)\.|"
    r"org\.(springframework|apache|h2|postgresql|hibernate)\.|\bSQL|Application error|Invalid protobuf")


def check(case: Case, answer: Answer, decodes: Callable[[str, bytes], bool]) -> list[str]:
    """The problems with answer, for case; empty when it satisfies every rule. decodes tells
    whether the service's own decoder takes bytes as a request of an RPC (reference.py)."""
    return beside_problems(answer) + _check(case, answer, decodes)


def beside_problems(answer: Answer) -> list[str]:
    """One bad call costs one call: a valid call open on the same connection meanwhile (runner)
    gets its answer, OK, whatever the case did to its own stream — a GOAWAY, a connection
    closed or broken HTTP/2 would fail every call multiplexed beside it."""
    b = answer.beside
    if b is None:
        return []
    if b.connection_lost:
        return [f"a valid call beside it on the same connection failed: the connection broke ({b.connection_lost})"]
    if b.reset_by_server is not None or b.grpc_status != 0:
        return [f"a valid call beside it on the same connection failed: status {b.grpc_status} "
                f"{b.grpc_message!r}, reset {b.reset_by_server}"]
    return []


def _check(case: Case, answer: Answer, decodes: Callable[[str, bytes], bool]) -> list[str]:
    if answer.connection_lost:
        return [f"the connection broke: {answer.connection_lost}"]
    if answer.reset_by_client:
        return []  # the client cancelled: there is no answer to judge, only the rows (runner)
    if case.transport == "rest":
        return _check_rest(case, answer)
    # RST_STREAM NO_ERROR after a complete answer only tells the client to stop sending (a
    # server that answered before reading the whole request): the answer stands.
    answered = _code(case, answer)[0] is not None and answer.reset_by_server in (None, RST_NO_ERROR)
    if answer.reset_by_server is not None and not answered and answer.http_status != 431:
        # These resets are answers: a stream the client never ended, reset at its deadline
        # (CANCEL), is how a server lets go of it; headers over the SETTINGS_MAX_HEADER_LIST_SIZE
        # the client acknowledged are refused by HTTP/2 itself (ENHANCE_YOUR_CALM). Any other
        # reset is a problem.
        if case.end == "open" and answer.reset_by_server == RST_CANCEL:
            return []
        # A framing error or a frame over the size limit after the server started answering a
        # stream (SyncPeople): grpc-java's transport resets the stream instead of a status.
        transport_error = case.framing in FRAMING_ERRORS or case.framing == "over-the-limit-length"
        if transport_error and answer.reset_by_server == RST_CANCEL and answer.http_status == 200:
            return []
        if case.auth in OVER_HEADER_LIMIT and answer.reset_by_server == RST_ENHANCE_YOUR_CALM:
            return []
        return [f"the server reset the stream (HTTP/2 error {answer.reset_by_server}) instead of answering"]
    code, message = _code(case, answer)
    if code is None:
        return [f"no status: HTTP {answer.http_status}, headers {answer.headers}, reset {answer.reset_by_server}"]
    problems = []
    allowed, exactly, why = _expected(case, decodes)
    if exactly is not None and code not in exactly:
        problems.append(f"{NAMES.get(code, code)} where {why} must give "
                        f"{'/'.join(NAMES[c] for c in sorted(exactly))}")
    elif code not in allowed:
        problems.append(f"{NAMES.get(code, code)} is not a code {case.rpc} documents here "
                        f"({', '.join(NAMES[c] for c in sorted(allowed))})")
    if INTERNALS.search(message):
        problems.append(f"the status message shows internals: {message!r}")
    return problems


def _code(case: Case, answer: Answer) -> tuple[int | None, str]:
    if case.transport == "connect-proto" or case.transport == "connect-json":
        if answer.http_status == 200:
            return OK, ""
        try:
            error = json.loads(answer.body)
            return CONNECT_CODES.get(error.get("code"), UNKNOWN), error.get("message", "")
        except ValueError:
            return None, ""
    if case.transport == "grpc-web" and answer.grpc_status is None:
        trailer = _grpc_web_trailer(answer.body)
        if "grpc-status" in trailer:
            from urllib.parse import unquote
            return int(trailer["grpc-status"]), unquote(trailer.get("grpc-message", ""))
    if answer.http_status == 431:  # headers over the limit, refused by the HTTP/2 layer (Netty
        return RESOURCE_EXHAUSTED, ""  # answers 431, then resets the stream)
    return answer.grpc_status, answer.grpc_message


def _expected(case: Case, decodes) -> tuple[set[int], set[int] | None, str]:
    """(allowed codes, the exact codes this case must get or None, why)."""
    allowed = DECODED[case.rpc] | WIRE
    if case.end == "open":
        allowed |= {DEADLINE_EXCEEDED}
    if case.framing in FRAMING_ERRORS:
        allowed |= {INTERNAL}
    if case.auth in OVER_HEADER_LIMIT:
        # person-spring checks the limit per call, where the call starts (its transport reads
        # header lists up to 1 MB, so that one call's headers cost only that call); grpc-java
        # refuses an unknown grpc-encoding before any call starts.
        unknown_encoding = case.service == "person-spring" and case.framing == "unknown-encoding"
        return allowed, {RESOURCE_EXHAUSTED} | ({UNIMPLEMENTED} if unknown_encoding else set()), \
            "headers over the declared limit"
    if case.framing == "unknown-encoding":
        return allowed, {UNIMPLEMENTED}, "an unknown grpc-encoding"
    # What a transport may answer on its own, from a frame header, before any interceptor.
    transport = ({RESOURCE_EXHAUSTED} if case.framing == "over-the-limit-length"
                 else {INTERNAL} if case.framing in FRAMING_ERRORS and case.service == "person-spring" else set())
    if case.service == "person-spring" and case.auth in ("none", "garbage", "longest-allowed"):
        # The token is checked when the call starts, before any message is decoded.
        return allowed, {UNAUTHENTICATED} | transport, f"authorization {case.auth!r}"
    if case.framing == "over-the-limit-length":
        # The oversize envelope comes after the case's messages, which may be refused first
        # (one too many for a unary call, or invalid).
        first = {RESOURCE_EXHAUSTED} | ({INVALID_ARGUMENT} if case.messages else set())
        return allowed, first, "a message declared over the size limit"
    # A message over the size limit is refused as such, whatever else is wrong with the call.
    oversize = {RESOURCE_EXHAUSTED} if any(len(m) > LIMITS[case.service].message_bytes for m in case.raw()) else set()
    if case.framing == "gzip-bomb":
        return allowed, {RESOURCE_EXHAUSTED, INVALID_ARGUMENT}, "a compression bomb"
    if case.framing in ("lying-length", "compressed-without-encoding"):
        return allowed, {INTERNAL, INVALID_ARGUMENT} | oversize, f"a framing error ({case.framing})"
    if case.framing == "reserved-flags" or case.end != "half-close":
        return allowed, None, ""
    if oversize and case.transport != "connect-json":
        return allowed, oversize | {INVALID_ARGUMENT}, "a message over the size limit"
    if case.shape in ("unary", "server-stream") and len(case.messages) != 1:
        return allowed, {INVALID_ARGUMENT}, f"a {case.shape} call with {len(case.messages)} requests"
    if case.transport == "connect-json":
        return allowed, None, ""
    undecodable = [i for i, m in enumerate(case.raw()) if not decodes(case.rpc, m)]
    # How deep a parser may recurse into groups differs between runtimes (protobuf-java: 100).
    if undecodable and case.spoiled[undecodable[0]] != "deep-nesting":
        return allowed, {INVALID_ARGUMENT}, f"message {undecodable[0]}, which cannot be decoded,"
    return allowed, None, ""


def _check_rest(case: Case, answer: Answer) -> list[str]:
    status = answer.http_status
    allowed = {200, 201, 400, 401, 404, 405, 409, 413, 415, 429, 431}
    problems = []
    if status not in allowed:
        problems.append(f"HTTP {status} is not a status the REST twin documents")
    if status is not None and status >= 300 and status != 431:
        try:
            error = json.loads(answer.body)
            message = str(error.get("message", ""))
            # Both twins' one error shape (docs/rest-errors.md): Connect's error JSON.
            details = error.get("details", [])
            if "code" not in error:
                problems.append(f"HTTP {status} without an error code: {answer.body[:200]!r}")
            elif error["code"] not in CONNECT_CODES:
                problems.append(f"HTTP {status} with code {error['code']!r}, not a Connect code (lower case)")
            if not isinstance(details, list) or not all(
                    isinstance(d, dict) and isinstance(d.get("type"), str) and isinstance(d.get("value"), str) for d in details):
                problems.append(f"HTTP {status} with details that are not Connect's (type, value): {answer.body[:200]!r}")
            if INTERNALS.search(message):
                problems.append(f"the error message shows internals: {message!r}")
        except (ValueError, AttributeError):
            problems.append(f"HTTP {status} with a body that is not the JSON error: {answer.body[:200]!r}")
    if case.auth in OVER_HEADER_LIMIT and status != 431:
        problems.append(f"HTTP {status} for headers over the declared limit, want 431")
    return problems


def _grpc_web_trailer(body: bytes) -> dict[str, str]:
    at = 0
    while at + 5 <= len(body):
        flags, length = body[at], int.from_bytes(body[at + 1:at + 5], "big")
        if flags & 0x80:
            lines = body[at + 5:at + 5 + length].decode("utf-8", "replace").split("\r\n")
            return {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines if line)}
        at += 5 + length
    return {}
