"""A fuzz case: one call, every choice that went into it, and nothing else — so it can be saved
as JSON when it finds a failure and replayed, byte for byte, as a regression case."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from google.protobuf import json_format
from hypothesis import strategies as st

from . import inputs

# The RPCs and routes of each service, by transport, with their call shape; and how often a
# case picks each (Login and CreateUser cost a scrypt derivation each: about 50 ms).
TARGETS = {
    "person-spring": [
        ("grpc", "RegisterPerson", "unary", 4), ("grpc", "GetPerson", "unary", 3),
        ("grpc", "ListPeople", "server-stream", 3), ("grpc", "RegisterPeople", "client-stream", 5),
        ("grpc", "SyncPeople", "bidi", 4), ("rest", "POST /api/people", "rest", 2),
        ("rest", "GET /api/people/{id}", "rest", 1),
    ],
    "auth-node": [
        ("grpc", "ValidateToken", "unary", 6), ("grpc", "Login", "unary", 1),
        ("grpc", "CreateUser", "unary", 1), ("grpc", "DisableUser", "unary", 2),
        ("grpc", "ListUsers", "unary", 2), ("grpc-web", "ValidateToken", "unary", 2),
        ("grpc-web", "ListUsers", "unary", 1), ("connect-proto", "ValidateToken", "unary", 2),
        ("connect-proto", "DisableUser", "unary", 1), ("connect-json", "ValidateToken", "unary", 2),
        ("connect-json", "ListUsers", "unary", 1), ("rest", "POST /api/validate", "rest", 2),
        ("rest", "POST /api/login", "rest", 1),
    ],
}

SERVICES = {"person-spring": "acme.person.v1.PersonService", "auth-node": "acme.auth.v1.AuthService"}


@dataclass
class Case:
    service: str
    transport: str
    rpc: str
    shape: str
    messages: list[str]  # hex of each request message (REST and Connect JSON: the body)
    spoiled: list[str]  # how each message was spoiled ("as-is", "truncated", …)
    framing: str = "normal"
    auth: str = "valid"
    end: str = "half-close"
    content_type: str = ""  # REST only: the Content-Type sent
    path_id: str = ""  # REST GET only: the id in the path
    names: list[str] = field(default_factory=list)  # filled by the runner: people it sent

    def raw(self) -> list[bytes]:
        return [bytes.fromhex(m) for m in self.messages]

    def to_json(self, found: str = "") -> str:
        """The case as saved in fuzz/regressions/, with what it found."""
        return json.dumps({"found": found, **asdict(self)}, indent=1, ensure_ascii=False)

    @staticmethod
    def from_json(text: str) -> "Case":
        fields = json.loads(text)
        fields.pop("found", None)
        return Case(**fields)


def _weighted(service: str):
    options = []
    for transport, rpc, shape, weight in TARGETS[service]:
        options += [(transport, rpc, shape)] * weight
    return st.sampled_from(options)


# Strategies are built once, here: Hypothesis validates each new strategy object when it is
# first drawn from, and building them inside a composite made that a cost of every case.
_TARGETS = {service: _weighted(service) for service in TARGETS}
_UNARY_COUNTS = st.sampled_from([1] * 10 + [0, 2])
_FRAMINGS = st.sampled_from(inputs.FRAMINGS)
_ENDS = st.sampled_from(inputs.ENDS)
_AUTHS = st.sampled_from(inputs.AUTHS)
_CONTENT_TYPES = st.sampled_from(
    ["application/json"] * 8 + ["application/json; charset=utf-8", "application/json; charset=iso-8859-1",
                                "application/x-www-form-urlencoded", "text/plain", ""])
_PATH_IDS = st.uuids().map(str) | st.text(max_size=40)
_JSON_SPOILS = st.sampled_from(
    ["as-is", "as-is", "as-is", "truncated", "char-set", "inserted", "unknown-field", "duplicate-key",
     "number-as-string", "fraction", "null", "trailing", "not-json", "latin-1"])


@st.composite
def case(draw, service: str) -> Case:
    transport, rpc, shape = draw(_TARGETS[service])
    if transport == "rest":
        return draw(_rest_case(service, rpc))
    if transport == "connect-json":
        message = draw(inputs.MESSAGES[rpc])
        how, text = draw(spoiled_json(json_format.MessageToJson(message, indent=None)))
        return Case(service, transport, rpc, shape, [text.encode().hex()], [how],
                    auth=draw(_AUTHS))
    if transport == "connect-proto":  # the body is the message: there is no count to get wrong
        count = 1
    elif shape in ("unary", "server-stream"):
        count = draw(_UNARY_COUNTS)
    else:
        count = draw(inputs.STREAM_LENGTHS)
    messages, spoiled = [], []
    spoil_at = draw(st.integers(-1, max(count - 1, 0)))  # -1: none
    for i in range(count):
        data = draw(inputs.MESSAGES[rpc]).SerializeToString()
        how, data = draw(inputs.spoiled(data)) if i == spoil_at else ("as-is", data)
        messages.append(data.hex())
        spoiled.append(how)
    framing = draw(_FRAMINGS) if transport != "connect-proto" else "normal"
    end = draw(_ENDS) if transport == "grpc" else "half-close"
    return Case(service, transport, rpc, shape, messages, spoiled, framing=framing,
                auth=draw(_AUTHS), end=end)


@st.composite
def _rest_case(draw, service: str, route: str) -> Case:
    method = route.split()[0]
    content_type = draw(_CONTENT_TYPES)
    if method == "GET":
        path_id = draw(_PATH_IDS)
        return Case(service, "rest", route, "rest", [], [], auth=draw(_AUTHS),
                    path_id=path_id)
    if route == "POST /api/people":
        person = draw(inputs.MESSAGES["RegisterPerson"]).person
        text = json_format.MessageToJson(person, indent=None, always_print_fields_with_no_presence=True)
    else:
        rpc = {"POST /api/login": "Login", "POST /api/validate": "ValidateToken"}[route]
        text = json_format.MessageToJson(draw(inputs.MESSAGES[rpc]), indent=None)
    how, text = draw(spoiled_json(text))
    body = text.encode("utf-8", "surrogatepass") if how != "latin-1" else text.encode("latin-1", "replace")
    return Case(service, "rest", route, "rest", [body.hex()], [how], auth=draw(_AUTHS),
                content_type=content_type)


@st.composite
def spoiled_json(draw, text: str) -> tuple[str, str]:
    """(how, text): JSON text as generated, or spoiled the ways a JSON client can."""
    how = draw(_JSON_SPOILS)
    if how == "truncated" and text:
        return how, text[: draw(st.integers(0, len(text) - 1))]
    if how == "char-set" and text:
        i = draw(st.integers(0, len(text) - 1))
        return how, text[:i] + draw(st.characters(codec="utf-8")) + text[i + 1:]
    if how == "inserted":
        i = draw(st.integers(0, len(text)))
        return how, text[:i] + draw(st.text(min_size=1, max_size=4)) + text[i:]
    if text.startswith("{") and len(text) > 2:
        body = text[1:]
        if how == "unknown-field":
            return how, '{"nickname":"x",' + body
        if how == "duplicate-key":
            key = text[1:].split(":", 1)[0]
            return how, "{" + key + ':"again",' + body
        if how == "number-as-string":
            return how, '{"age":"36",' + body
        if how == "fraction":
            return how, '{"age":1.5,' + body
        if how == "null":
            return how, '{"age":null,' + body
    if how == "trailing":
        return how, text + " {}"
    if how == "not-json":
        return how, draw(st.text(max_size=30))
    if how == "latin-1":
        return how, text[:-1] + ',"x":"\u00ff\u00fe"}' if text.endswith("}") else text
    return "as-is", text
