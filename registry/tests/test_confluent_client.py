"""Confluent's own Python client against our registry: the real registry process, the real
SchemaRegistryClient and protobuf serde, and a Person from our Python SDK."""

import base64
import json
import os
import unittest
import urllib.error
import urllib.parse
import urllib.request

from acme.person.v1 import person_pb2
from confluent_kafka.schema_registry import Schema, SchemaReference, SchemaRegistryClient
from confluent_kafka.schema_registry.error import SchemaRegistryError
from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer, ProtobufSerializer
from confluent_kafka.serialization import MessageField, SerializationContext
from google.protobuf import descriptor_pb2

from registry_process import RegistryProcess, temporary_db

PERSON_PROTO = os.path.join(os.environ["REPO_ROOT"], "proto/acme/person/v1/person.proto")
TOPIC = "people"
SUBJECT = "people-value"  # the serializer's default subject: the topic's value


def person() -> person_pb2.Person:
    p = person_pb2.Person(id="p-1", name="Ada Lovelace", age=36, hobbies=["mathematics", "poetry"])
    p.address.city = "London"
    p.address.zip_code = "W1 1AA"
    p.created_at.seconds = 1_700_000_000
    return p


def http(url: str, method: str = "GET", body: bytes | None = None) -> tuple[int, dict]:
    req = urllib.request.Request(url, data=body, method=method,
                                 headers={"Content-Type": "application/vnd.schemaregistry.v1+json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def proto_text(old: str = "", new: str = "") -> str:
    with open(PERSON_PROTO) as f:
        text = f.read()
    if old:
        assert old in text, f"{old!r} is not in person.proto"
        text = text.replace(old, new, 1)
    return text


class ConfluentClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.registry = RegistryProcess(temporary_db())
        cls.url = cls.registry.start()
        cls.client = SchemaRegistryClient({"url": cls.url})
        cls.ctx = SerializationContext(TOPIC, MessageField.VALUE)
        # The serializer registers Person's file and, as references, the files it imports
        # (buf/validate/validate.proto; the well-known types are built in).
        cls.serializer = ProtobufSerializer(person_pb2.Person, cls.client, {"use.deprecated.format": False})
        cls.payload = cls.serializer(person(), cls.ctx)

    @classmethod
    def tearDownClass(cls):
        cls.registry.stop()

    def subject_url(self, subject: str) -> str:
        return f"{self.url}/subjects/{urllib.parse.quote(subject, safe='')}"

    def person_schema(self, mutate=None) -> Schema:
        """Person's file as the serializer registers it (a serialized descriptor), changed."""
        fdp = descriptor_pb2.FileDescriptorProto()
        person_pb2.DESCRIPTOR.CopyToProto(fdp)
        if mutate:
            mutate(fdp)
        refs = self.client.get_latest_version(SUBJECT).schema.references
        return Schema(base64.b64encode(fdp.SerializeToString()).decode(), "PROTOBUF", refs)

    # --- the round trip -------------------------------------------------------------------

    def test_serialize_and_deserialize_a_person(self):
        deserializer = ProtobufDeserializer(person_pb2.Person, {"use.deprecated.format": False},
                                            schema_registry_client=self.client)
        self.assertEqual(person(), deserializer(self.payload, self.ctx))
        # The framing names the id the registry gave Person's schema.
        latest = self.client.get_latest_version(SUBJECT)
        self.assertEqual(0, self.payload[0])
        self.assertEqual(latest.schema_id, int.from_bytes(self.payload[1:5], "big"))
        self.assertEqual("PROTOBUF", latest.schema.schema_type)
        self.assertEqual(["buf/validate/validate.proto"], [r.name for r in latest.schema.references])
        self.assertIn(SUBJECT, self.client.get_subjects())
        self.assertIn("buf/validate/validate.proto", self.client.get_subjects())

    def test_the_same_schema_again_has_the_same_id_and_version(self):
        schema = self.person_schema()
        first = self.client.register_schema(SUBJECT, schema)
        self.assertEqual(first, self.client.register_schema(SUBJECT, schema))
        found = self.client.lookup_schema(SUBJECT, schema)
        self.assertEqual(first, found.schema_id)
        self.assertEqual([found.version], self.client.get_versions(SUBJECT)[-1:])
        by_id = self.client.get_schema(first)
        self.assertEqual(schema.schema_str, by_id.schema_str)

    # --- breaking schemas are refused with the gate's findings ------------------------------

    def test_a_changed_field_type_is_refused_with_buf_finding(self):
        def age_to_int64(fdp):
            field = next(f for m in fdp.message_type if m.name == "Person" for f in m.field if f.name == "age")
            field.type = descriptor_pb2.FieldDescriptorProto.TYPE_INT64

        breaking = self.person_schema(age_to_int64)
        self.assertFalse(self.client.test_compatibility(SUBJECT, breaking))
        status, body = http(f"{self.url}/compatibility/subjects/{SUBJECT}/versions/latest?verbose=true", "POST",
                            json.dumps({"schema": breaking.schema_str, "schemaType": "PROTOBUF",
                                        "references": [r.to_dict() for r in breaking.references]}).encode())
        self.assertEqual(200, status)
        self.assertFalse(body["is_compatible"])
        # A serialized descriptor carries no source positions, so buf's finding names the file
        # rather than the element; its message names the field.
        self.assertTrue(any(m.startswith("FIELD_SAME_TYPE ") and 'name "age" on message "Person"' in m
                            for m in body["messages"]), body)
        versions = self.client.get_versions(SUBJECT)
        with self.assertRaises(SchemaRegistryError) as refused:
            self.client.register_schema(SUBJECT, breaking)
        self.assertEqual((409, 409), (refused.exception.http_status_code, refused.exception.error_code))
        self.assertIn("FIELD_SAME_TYPE", refused.exception.error_message)
        self.assertEqual(versions, self.client.get_versions(SUBJECT), "a refused schema was stored")

    def test_a_tightened_validation_rule_is_refused_with_the_gate_rule(self):
        subject = "person-text"
        self.client.register_schema(subject, Schema(proto_text(), "PROTOBUF"))
        tightened = Schema(proto_text("max_len: 200", "max_len: 100"), "PROTOBUF")
        status, body = http(f"{self.subject_url(subject).replace('/subjects/', '/compatibility/subjects/')}"
                            "/versions/latest?verbose=true", "POST",
                            json.dumps({"schema": tightened.schema_str, "schemaType": "PROTOBUF"}).encode())
        self.assertEqual(200, status)
        self.assertFalse(body["is_compatible"])
        self.assertTrue(any(m.startswith("VALIDATE_MAX_LEN_TIGHTENED acme.person.v1.Person.name ")
                            for m in body["messages"]), body)
        with self.assertRaises(SchemaRegistryError) as refused:
            self.client.register_schema(subject, tightened)
        self.assertEqual(409, refused.exception.error_code)
        self.assertIn("VALIDATE_MAX_LEN_TIGHTENED", refused.exception.error_message)
        # A new field breaks nothing: it becomes version 2. Under NONE the tightened rule passes.
        added = proto_text("  google.protobuf.Timestamp created_at = 6;",
                           "  google.protobuf.Timestamp created_at = 6;\n  // nickname is optional.\n  string nickname = 7;")
        self.assertTrue(self.client.test_compatibility(subject, Schema(added, "PROTOBUF")))
        self.client.register_schema(subject, Schema(added, "PROTOBUF"))
        self.assertEqual([1, 2], self.client.get_versions(subject))
        self.client.set_compatibility(subject, "NONE")
        self.assertEqual("NONE", self.client.get_compatibility(subject))
        self.assertTrue(self.client.test_compatibility(subject, tightened))

    def test_forward_compares_the_other_way(self):
        subject = "person-forward"
        self.client.register_schema(subject, Schema(proto_text(), "PROTOBUF"))
        self.client.set_compatibility(subject, "FORWARD")
        loosened = proto_text("max_len: 200", "max_len: 300")
        status, body = http(f"{self.url}/compatibility/subjects/{subject}/versions/latest?verbose=true", "POST",
                            json.dumps({"schema": loosened, "schemaType": "PROTOBUF"}).encode())
        self.assertEqual(200, status)
        self.assertFalse(body["is_compatible"])
        self.assertTrue(any("VALIDATE_MAX_LEN_TIGHTENED" in m and "[FORWARD against version 1]" in m
                            for m in body["messages"]), body)

    # --- bad input gets Confluent's codes, never a 500, and stores nothing ------------------

    def assertCode(self, code: int, call):
        with self.assertRaises(SchemaRegistryError) as e:
            call()
        self.assertEqual(code, e.exception.error_code, e.exception.error_message)

    def test_bad_input_through_the_client(self):
        before = {s: self.client.get_versions(s) for s in self.client.get_subjects()}
        self.assertCode(40401, lambda: self.client.get_version("no-such-subject", 1))
        self.assertCode(40402, lambda: self.client.get_version(SUBJECT, 99))
        self.assertCode(40403, lambda: self.client.get_schema(999_999))
        self.assertCode(40403, lambda: self.client.lookup_schema(SUBJECT, Schema('syntax = "proto3";', "PROTOBUF")))
        self.assertCode(42201, lambda: self.client.register_schema(
            "bad", Schema('syntax = "proto3"; message A { int32 a = 1; int32 b = 1; }', "PROTOBUF")))
        self.assertCode(42201, lambda: self.client.register_schema(
            "bad", Schema('syntax = "proto3"; import "other.proto"; message A { Other o = 1; }', "PROTOBUF")))
        self.assertCode(42201, lambda: self.client.register_schema(
            "bad", Schema('syntax = "proto3"; import "other.proto"; message A { Other o = 1; }', "PROTOBUF",
                          [SchemaReference("other.proto", "no-such-subject", 1)])))
        self.assertCode(42201, lambda: self.client.register_schema("bad", Schema("not a schema {", "PROTOBUF")))
        self.assertCode(42201, lambda: self.client.register_schema("bad", Schema('{"type": "string"}', "AVRO")))
        self.assertCode(42203, lambda: self.client.set_compatibility("bad", "SOMETIMES"))
        after = {s: self.client.get_versions(s) for s in self.client.get_subjects()}
        self.assertEqual(before, after, "a refused request stored something")

    def test_bad_input_over_http(self):
        cases = [
            ("GET", f"/subjects/{SUBJECT}/versions/abc", None, 422, 42202),
            ("GET", f"/subjects/{SUBJECT}/versions/0", None, 422, 42202),
            ("GET", "/schemas/ids/not-a-number", None, 404, 40403),
            ("POST", f"/subjects/{SUBJECT}/versions", b"{not json", 422, 422),
            ("POST", f"/subjects/{SUBJECT}/versions", b'{"schema": 5}', 422, 422),
            ("POST", f"/subjects/{SUBJECT}/versions", b'{"schema": ""}', 422, 42201),
            ("POST", "/subjects/%01ctl/versions", b'{"schema": "x", "schemaType": "PROTOBUF"}', 422, 422),
            ("POST", f"/subjects/{'s' * 300}/versions", b'{"schema": "x", "schemaType": "PROTOBUF"}', 422, 422),
            ("POST", f"/subjects/{SUBJECT}/versions",
             b'{"schema": "' + b"a" * (2 << 20) + b'", "schemaType": "PROTOBUF"}', 413, 413),
            ("POST", "/compatibility/subjects/no-such-subject/versions/latest",
             json.dumps({"schema": proto_text(), "schemaType": "PROTOBUF"}).encode(), 404, 40401),
            ("PUT", "/config", b'{"compatibility": "bogus"}', 422, 42203),
            ("GET", "/config/never-configured", None, 404, 40408),
        ]
        for method, path, body, status, code in cases:
            with self.subTest(method=method, path=path[:60]):
                got_status, got = http(self.url + path, method, body)
                self.assertEqual((status, code), (got_status, got.get("error_code")), got)
        self.assertEqual((200, {"compatibilityLevel": "BACKWARD_TRANSITIVE"}), http(self.url + "/config"))


class PersistenceTest(unittest.TestCase):
    def test_a_restarted_registry_serves_what_it_stored(self):
        registry = RegistryProcess(temporary_db())
        try:
            client = SchemaRegistryClient({"url": registry.start()})
            ctx = SerializationContext(TOPIC, MessageField.VALUE)
            payload = ProtobufSerializer(person_pb2.Person, client, {"use.deprecated.format": False})(person(), ctx)
            client.set_compatibility(SUBJECT, "FULL")
            subjects = client.get_subjects()
            registry.stop()
            client = SchemaRegistryClient({"url": registry.start()})
            self.assertEqual(subjects, client.get_subjects())
            self.assertEqual("FULL", client.get_compatibility(SUBJECT))
            deserializer = ProtobufDeserializer(person_pb2.Person, {"use.deprecated.format": False},
                                                schema_registry_client=client)
            self.assertEqual(person(), deserializer(payload, ctx))
        finally:
            registry.stop()


if __name__ == "__main__":
    unittest.main()
