"""golden-encode / golden-decode (README "the wire vectors"), with the SDK's message classes
and protobuf's own JSON parser and printer at their defaults."""

import json
import os

# Importing the SDK's modules puts their messages into the default pool, where the vectors'
# full type names are looked up.
from acme.auth.v1 import auth_service_pb2, user_pb2  # noqa: F401
from acme.person.v1 import person_pb2, person_service_pb2  # noqa: F401
from google.protobuf import descriptor_pool, json_format, message_factory

from .report import check


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def message_class(type_name):
    return message_factory.GetMessageClass(
        descriptor_pool.Default().FindMessageTypeByName(type_name))


def from_json(vector):
    return json_format.Parse(json.dumps(vector["json"]), message_class(vector["type"])())


def from_binary(vector, data=None):
    return message_class(vector["type"]).FromString(
        bytes.fromhex(vector["binary"]) if data is None else data)


def _write(directory, name, data):
    mode, kwargs = ("wb", {}) if isinstance(data, bytes) else ("w", {"encoding": "utf-8"})
    with open(os.path.join(directory, name), mode, **kwargs) as f:
        f.write(data)


def _guarded(vector, bad, fn):
    """Runs one vector's check; a parse error is that vector's failure, not the feature's end."""
    try:
        problem = fn()
    except Exception as error:  # e.g. json_format.ParseError, DecodeError
        problem = f"{type(error).__name__}: {error}"
    if problem:
        bad.append(f"{vector['name']}: {problem}")


def golden_binary(vectors, out):
    bad = []
    for vector in (v for v in vectors if not v.get("unknown")):
        def one(vector=vector):
            encoded = from_json(vector).SerializeToString()
            _write(out, f"{vector['name']}.binpb", encoded)
            if encoded.hex() != vector["binary"]:
                return f"encoded {encoded.hex()}"
        _guarded(vector, bad, one)
    check(not bad, "; ".join(bad))


def golden_json(vectors, out):
    bad = []
    for vector in vectors:
        def one(vector=vector):
            printed = json_format.MessageToJson(from_binary(vector))
            _write(out, f"{vector['name']}.json", printed)
            if json.loads(printed) != vector["json"]:
                return f"printed {json.dumps(json.loads(printed), ensure_ascii=False)}"
        _guarded(vector, bad, one)
    check(not bad, "; ".join(bad))


def golden_unknown_fields(vectors, out):
    bad = []
    unknown = [v for v in vectors if v.get("unknown")]
    check(unknown, "the vectors hold no unknown-field vector")
    for vector in unknown:
        def one(vector=vector):
            message = from_binary(vector)
            relayed = message.SerializeToString()
            _write(out, f"{vector['name']}.binpb", relayed)
            if relayed.hex() != vector["binary"]:
                return f"re-encoded {relayed.hex()}"
            message.DiscardUnknownFields()
            if message != from_json(vector):
                return f"known fields {json_format.MessageToJson(message, indent=None)}"
        _guarded(vector, bad, one)
    check(not bad, "; ".join(bad))


def golden_decode(vectors, peer, directory):
    """Every file the peer wrote decodes to the vector's message. A vector without its two
    files (.binpb and .json) counts as differing too: the peer was meant to write them."""
    by_name = {v["name"]: v for v in vectors}
    bad = []
    files = sorted(os.listdir(directory))
    for vector in vectors:
        for ext in ("binpb", "json"):
            if f"{vector['name']}.{ext}" not in files:
                bad.append(f"{vector['name']}.{ext}: missing")
    for file in files:
        stem, ext = os.path.splitext(file)
        if ext not in (".binpb", ".json"):
            continue
        vector = by_name.get(stem)
        if vector is None:
            bad.append(f"{file}: no such vector")
            continue
        path = os.path.join(directory, file)

        def one(vector=vector, path=path, ext=ext):
            expected = from_json(vector)
            if ext == ".binpb":
                with open(path, "rb") as f:
                    data = f.read()
                decoded = from_binary(vector, data)
                if vector.get("unknown"):
                    if decoded.SerializeToString().hex() != vector["binary"]:
                        return f"binpb re-encodes to {decoded.SerializeToString().hex()}"
                elif decoded != expected:
                    return f"binpb decodes to {json_format.MessageToJson(decoded, indent=None)}"
            else:
                with open(path, encoding="utf-8") as f:
                    parsed = json_format.Parse(f.read(), message_class(vector["type"])())
                if parsed != expected:
                    return f"json parses to {json_format.MessageToJson(parsed, indent=None)}"
        _guarded(vector, bad, one)
    check(not bad, f"peer {peer}: " + "; ".join(bad))
