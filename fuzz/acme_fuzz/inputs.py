"""What the fuzz suite sends, as Hypothesis strategies: valid request messages of every RPC
(built with the Python SDK), and the ways an outside client can spoil them — in the message
bytes (truncation, bit flips, wrong wire types, huge lengths, deep nesting, unknown fields,
random bytes) and in the gRPC framing (compression, bombs, lying lengths, reserved flags, the
wrong number of messages), the headers and the end of the stream (half-close, reset, neither).

Person names in the messages are a fixed-length slot that the runner fills with a name unique
to the run after mutating, so every stored person can be traced to the call that sent it."""

from __future__ import annotations

from acme.auth.v1 import auth_service_pb2 as auth
from acme.person.v1 import person_pb2
from acme.person.v1 import person_service_pb2 as ps
from hypothesis import strategies as st

# Replaced by the runner with a unique name of the same length (runner.py: fill_names).
NAME_SLOT = "fz-name-slot-00000000"

# --- valid messages ------------------------------------------------------------------------

# Strategies are built once, here: Hypothesis validates each new strategy object when it is
# first drawn from, and building them inside a composite made that a cost of every case.
_text = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=24)
_uuids = st.uuids().map(str)
_ages = st.integers(-5, 200) | st.integers(0, 150)
_hobbies = st.lists(_text, max_size=4)


@st.composite
def _person(draw):
    p = person_pb2.Person(
        name=NAME_SLOT,
        age=draw(_ages),
        hobbies=draw(_hobbies),
    )
    if draw(st.booleans()):
        p.address.city = draw(_text)
        p.address.zip_code = draw(_zip_code_or_text)
    return p


# Valid-looking values, built from plain alphabets (regex strategies cost far more per draw).
_usernames = st.text("abcdefghijklmnopqrstuvwxyz0123456789._-", min_size=1, max_size=20).map(lambda t: "fz" + t)
_zip_codes = st.sampled_from(["8001", "SW1A 1AA", "10115", "75-001", "K1A0B1"])
_zip_code_or_text = _zip_codes | _text

# Each request message of each RPC, valid or nearly (the rules decide, not the fuzzer).
MESSAGES = {
    "RegisterPerson": st.builds(lambda r, p: ps.RegisterPersonRequest(request_id=r, person=p),
                                _uuids | _text, _person()),
    "GetPerson": st.builds(lambda i: ps.GetPersonRequest(id=i), _uuids | _text),
    "ListPeople": st.builds(
        lambda n, lo, hi, page, limit: ps.ListPeopleRequest(name_contains=n, min_age=lo, max_age=hi,
                                                            page=page, limit=limit),
        _text, st.none() | st.integers(-1, 151), st.none() | st.integers(-1, 151),
        st.integers(0, 3), st.integers(0, 5)),
    "RegisterPeople": st.builds(lambda r, p: ps.RegisterPeopleRequest(request_id=r, person=p),
                                st.just("") | _uuids, _person()),
    "SyncPeople": st.builds(lambda r, p: ps.SyncPeopleRequest(request_id=r, person=p), _uuids, _person()),
    "Login": st.builds(lambda u, p: auth.LoginRequest(username=u, password=p), _usernames | _text, _text),
    "ValidateToken": st.builds(lambda t: auth.ValidateTokenRequest(token=t), _text | st.just("<admin-token>")),
    "CreateUser": st.builds(
        lambda u, p, r: auth.CreateUserRequest(username=u, password=p, roles=r),
        # Roles 0..2 are acme.auth.v1.Role's values; 3 is undefined, on purpose.
        _usernames, st.text(min_size=10, max_size=20), st.lists(st.sampled_from([0, 1, 2, 3]), max_size=3)),
    "DisableUser": st.builds(lambda u: auth.DisableUserRequest(username=u), _usernames),
    "ListUsers": st.just(auth.ListUsersRequest()),
}

# The message type of each RPC's requests, for the reference decoder.
TYPES = {
    "RegisterPerson": ps.RegisterPersonRequest, "GetPerson": ps.GetPersonRequest,
    "ListPeople": ps.ListPeopleRequest, "RegisterPeople": ps.RegisterPeopleRequest,
    "SyncPeople": ps.SyncPeopleRequest, "Login": auth.LoginRequest,
    "ValidateToken": auth.ValidateTokenRequest, "CreateUser": auth.CreateUserRequest,
    "DisableUser": auth.DisableUserRequest, "ListUsers": auth.ListUsersRequest,
}

# --- spoiling the bytes of a message --------------------------------------------------------


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


_SPOILS = st.sampled_from(
    ["as-is", "as-is", "as-is", "truncated", "bit-flip", "byte-set", "inserted", "wrong-wire-type",
     "huge-length", "deep-nesting", "unknown-fields", "random", "doubled", "empty"])
_HUGE_LENGTHS = st.sampled_from([2**31 - 1, 2**32 - 1, 2**63, 10**9, 9 * 2**20])
_DEPTHS = st.sampled_from([99, 101, 1000, 100_000])
_UNKNOWN_WIRE_TYPES = st.sampled_from([0, 1, 2, 5])


@st.composite
def spoiled(draw, data: bytes) -> tuple[str, bytes]:
    """(how, bytes): data itself, or data spoiled in one of the ways a client can."""
    how = draw(_SPOILS)
    if how == "as-is":
        return how, data
    if how == "empty":
        return how, b""
    if how == "random":
        return how, draw(st.binary(max_size=64))
    if how == "doubled":  # valid protobuf: fields of the second copy override or append
        return how, data + data
    if how == "truncated" and data:
        return how, data[: draw(st.integers(0, len(data) - 1))]
    if how == "bit-flip" and data:
        i, bit = draw(st.integers(0, len(data) - 1)), draw(st.integers(0, 7))
        return how, data[:i] + bytes([data[i] ^ (1 << bit)]) + data[i + 1:]
    if how == "byte-set" and data:
        i = draw(st.integers(0, len(data) - 1))
        return how, data[:i] + bytes([draw(st.integers(0, 255))]) + data[i + 1:]
    if how == "inserted":
        i = draw(st.integers(0, len(data)))
        return how, data[:i] + draw(st.binary(min_size=1, max_size=8)) + data[i:]
    if how == "wrong-wire-type":  # wire types 6 and 7 do not exist; 0..5 mismatch the field
        field = draw(st.integers(1, 9))
        wire = draw(st.integers(0, 7))
        return how, data + varint(field << 3 | wire) + draw(st.binary(min_size=0, max_size=6))
    if how == "huge-length":  # a length-delimited field that promises more than there is
        field = draw(st.integers(1, 2**29 - 1))
        length = draw(_HUGE_LENGTHS)
        return how, data + varint(field << 3 | 2) + varint(length) + b"xyz"
    if how == "deep-nesting":  # unknown groups nested deeper than any parser recurses
        depth = draw(_DEPTHS)
        field = draw(st.integers(100, 200))
        return how, data + varint(field << 3 | 3) * depth + varint(field << 3 | 4) * depth
    if how == "unknown-fields":  # valid unknown fields, of every wire type
        extra = b""
        for _ in range(draw(st.integers(1, 4))):
            field = draw(st.integers(50, 2**29 - 1))
            wire = draw(_UNKNOWN_WIRE_TYPES)
            payload = {0: varint(draw(st.integers(0, 2**64 - 1))), 1: bytes(8), 5: bytes(4),
                       2: (lambda b: varint(len(b)) + b)(draw(st.binary(max_size=16)))}[wire]
            extra += varint(field << 3 | wire) + payload
        return how, data + extra
    return "as-is", data


# --- the call around the messages -----------------------------------------------------------

# How the messages are framed on the wire; "normal" most of the time.
FRAMINGS = ["normal"] * 12 + ["gzip", "gzip-bomb", "compressed-without-encoding", "unknown-encoding",
                              "lying-length", "over-the-limit-length", "reserved-flags"]

# What the authorization header carries. Far over the header limit: 64 KB, four times the limit,
# past what HTTP/2 servers commonly decode before they close the whole connection.
AUTHS = ["valid"] * 12 + ["none", "garbage", "longest-allowed", "over-the-header-limit", "far-over-the-header-limit"]

# How the stream ends: half-close; the client resets it; or neither (a short deadline ends it).
ENDS = ["half-close"] * 8 + ["reset", "open"]

# Which of a stream's messages is spoiled, if any.
STREAM_LENGTHS = st.integers(0, 4)
