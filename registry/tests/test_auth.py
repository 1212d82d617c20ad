"""Writes to the registry need a token from the real auth service (services/auth-node) with
the write role; reads stay open. Confluent's client sends the token as its static bearer."""

import unittest

import grpc
from acme.auth.v1 import auth_service_pb2, auth_service_pb2_grpc, user_pb2
from confluent_kafka.schema_registry import Schema, SchemaRegistryClient
from confluent_kafka.schema_registry.error import SchemaRegistryError

from auth_process import ADMIN_PASSWORD, AuthProcess
from registry_process import RegistryProcess, temporary_db

SCHEMA = Schema('syntax = "proto3";\npackage demo.v1;\nmessage Ping {\n  string id = 1;\n}\n', "PROTOBUF")


def client(url: str, token: str | None = None) -> SchemaRegistryClient:
    conf = {"url": url}
    if token is not None:
        conf.update({"bearer.auth.credentials.source": "STATIC_TOKEN", "bearer.auth.token": token,
                     "bearer.auth.logical.cluster": "acme", "bearer.auth.identity.pool.id": "acme"})
    return SchemaRegistryClient(conf)


class AuthTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.auth = AuthProcess()
        cls.auth.start()
        cls.addClassCleanup(cls.auth.stop)
        with grpc.insecure_channel(cls.auth.rpc) as channel:
            stub = auth_service_pb2_grpc.AuthServiceStub(channel)
            cls.admin = stub.Login(auth_service_pb2.LoginRequest(username="admin", password=ADMIN_PASSWORD)).token
            stub.CreateUser(auth_service_pb2.CreateUserRequest(
                username="reader", password="Reader-pass-phrase-1234", roles=[user_pb2.ROLE_USER]),
                metadata=[("authorization", f"Bearer {cls.admin}")])
            cls.user = stub.Login(auth_service_pb2.LoginRequest(username="reader", password="Reader-pass-phrase-1234")).token
        cls.registry = RegistryProcess(temporary_db(), ["-auth-url", cls.auth.rest])
        cls.url = cls.registry.start()
        cls.addClassCleanup(cls.registry.stop)

    def assertRefused(self, status: int, code: int, token: str | None):
        with self.assertRaises(SchemaRegistryError) as e:
            client(self.url, token).register_schema("pings", SCHEMA)
        self.assertEqual((status, code), (e.exception.http_status_code, e.exception.error_code), e.exception.error_message)

    def test_writes_need_a_token_with_the_write_role(self):
        self.assertRefused(401, 401, None)
        self.assertRefused(401, 401, "not-a-token")
        self.assertRefused(403, 40301, self.user)  # ROLE_USER: valid, but may not write
        with self.assertRaises(SchemaRegistryError) as e:
            client(self.url, self.user).set_compatibility("pings", "NONE")
        self.assertEqual(40301, e.exception.error_code)
        self.assertNotIn("pings", client(self.url).get_subjects(), "a refused write stored something")
        schema_id = client(self.url, self.admin).register_schema("pings", SCHEMA)
        self.assertEqual(schema_id, client(self.url).get_latest_version("pings").schema_id)

    def test_reads_and_checks_stay_open(self):
        client(self.url, self.admin).register_schema("open-reads", SCHEMA)
        anonymous = client(self.url)
        self.assertIn("open-reads", anonymous.get_subjects())
        self.assertTrue(anonymous.test_compatibility("open-reads", SCHEMA))
        self.assertEqual(1, anonymous.lookup_schema("open-reads", SCHEMA).version)


if __name__ == "__main__":
    unittest.main()
