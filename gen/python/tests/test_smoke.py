"""Smoke test of the installed Python SDK: run against `pip install ./gen/python`, not the
source tree, so a packaging mistake (missing module, missing stub) fails here."""

import grpc
import protovalidate
import pytest
from google.protobuf import json_format
from google.protobuf.timestamp_pb2 import Timestamp

from acme.auth.v1 import auth_service_pb2, auth_service_pb2_grpc
from acme.person.v1 import person_pb2, person_service_pb2, person_service_pb2_grpc
from buf.validate import validate_pb2


def sample_person() -> person_pb2.Person:
    return person_pb2.Person(
        id="5b0e7c1e-3f0a-4d4e-9a51-0c6b1f2a9e11",
        name="Polar Penguin ❄",
        age=20,
        hobbies=["swimming", "sliding"],
        address=person_pb2.Address(city="Zürich", zip_code="8001"),
        created_at=Timestamp(seconds=1_764_000_000, nanos=123_000_000),
    )


def test_sdk_is_installed_not_imported_from_source():
    assert "site-packages" in person_pb2.__file__


def test_binary_round_trip():
    person = sample_person()
    assert person_pb2.Person.FromString(person.SerializeToString()) == person


def test_json_round_trip_uses_proto_json_names():
    person = sample_person()
    as_json = json_format.MessageToDict(person)
    assert as_json["address"]["zipCode"] == "8001"
    assert as_json["createdAt"] == "2025-11-24T16:00:00.123Z"
    assert json_format.ParseDict(as_json, person_pb2.Person()) == person


def test_small_person_has_the_documented_17_byte_encoding():
    assert len(person_pb2.Person(name="polar penguin", age=20).SerializeToString()) == 17


def test_address_presence_survives_the_wire():
    absent = person_pb2.Person.FromString(person_pb2.Person(name="a").SerializeToString())
    empty = person_pb2.Person.FromString(
        person_pb2.Person(name="a", address=person_pb2.Address()).SerializeToString()
    )
    assert not absent.HasField("address")
    assert empty.HasField("address")


def test_validation_rules_are_readable_from_the_descriptor():
    age = person_pb2.Person.DESCRIPTOR.fields_by_name["age"]
    rules = age.GetOptions().Extensions[validate_pb2.field]
    assert (rules.int32.gte, rules.int32.lte) == (0, 150)


def test_protovalidate_checks_messages_with_the_sdks_rules():
    protovalidate.validate(auth_service_pb2.LoginRequest(username="ana", password="x"))
    with pytest.raises(protovalidate.ValidationError) as failure:
        protovalidate.validate(person_pb2.Person(name="", age=151))
    found = {(v.proto.field.elements[0].field_name, v.proto.rule_id) for v in failure.value.violations}
    assert found == {("name", "string.min_len"), ("age", "int32.gte_lte")}


def test_grpc_stubs_expose_every_method():
    channel = grpc.insecure_channel("localhost:1")
    try:
        stub = person_service_pb2_grpc.PersonServiceStub(channel)
        for name in ("RegisterPerson", "RegisterPeople", "GetPerson", "ListPeople", "SyncPeople"):
            assert callable(getattr(stub, name))
        assert callable(auth_service_pb2_grpc.AuthServiceStub(channel).Login)
    finally:
        channel.close()
    service = person_service_pb2.DESCRIPTOR.services_by_name["PersonService"]
    shapes = {m.name: (m.client_streaming, m.server_streaming) for m in service.methods}
    assert shapes == {
        "RegisterPerson": (False, False),
        "RegisterPeople": (True, False),
        "GetPerson": (False, False),
        "ListPeople": (False, True),
        "SyncPeople": (True, True),
    }


def test_unreachable_server_is_unavailable():
    with grpc.insecure_channel("127.0.0.1:1") as channel:
        stub = auth_service_pb2_grpc.AuthServiceStub(channel)
        with pytest.raises(grpc.RpcError) as failure:
            stub.Login(auth_service_pb2.LoginRequest(username="ana", password="x"), timeout=2)
    assert failure.value.code() == grpc.StatusCode.UNAVAILABLE
