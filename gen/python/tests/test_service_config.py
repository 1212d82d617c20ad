"""The shipped service config through a real gRPC server on a localhost port: grpcio's own
retries against a server that fails a given number of times with a given code, then answers."""

import json
from concurrent import futures

import grpc
import pytest

from acme.auth.v1 import auth_service_pb2, auth_service_pb2_grpc
from acme_contracts.service_config import channel_options, service_config_json

MAX_ATTEMPTS = json.loads(service_config_json())["methodConfig"][0]["retryPolicy"]["maxAttempts"]


class FailingAuth(auth_service_pb2_grpc.AuthServiceServicer):
    def __init__(self):
        self.failures = {}  # method -> codes its next calls fail with, in order; then OK
        self.received = {}

    def _answer(self, method, context, response):
        self.received[method] = self.received.get(method, 0) + 1
        codes = self.failures.get(method, [])
        if codes:
            context.abort(codes.pop(0), f"failing {method} on purpose")
        return response

    def Login(self, request, context):
        return self._answer("Login", context, auth_service_pb2.LoginResponse(token="t"))

    def ValidateToken(self, request, context):
        return self._answer("ValidateToken", context, auth_service_pb2.ValidateTokenResponse(subject="ada"))

    def ListUsers(self, request, context):
        return self._answer("ListUsers", context, auth_service_pb2.ListUsersResponse())


@pytest.fixture
def served():
    auth = FailingAuth()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    auth_service_pb2_grpc.add_AuthServiceServicer_to_server(auth, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{port}", options=channel_options())
    yield auth, auth_service_pb2_grpc.AuthServiceStub(channel)
    channel.close()
    server.stop(None)


def test_an_idempotent_rpc_is_retried_on_unavailable_until_it_succeeds(served):
    auth, stub = served
    auth.failures["ValidateToken"] = [grpc.StatusCode.UNAVAILABLE] * 2
    assert stub.ValidateToken(auth_service_pb2.ValidateTokenRequest(token="t"), timeout=10).subject == "ada"
    assert auth.received["ValidateToken"] == 3


def test_at_most_max_attempts_then_the_last_unavailable(served):
    auth, stub = served
    auth.failures["ValidateToken"] = [grpc.StatusCode.UNAVAILABLE] * 10
    with pytest.raises(grpc.RpcError) as failed:
        stub.ValidateToken(auth_service_pb2.ValidateTokenRequest(token="t"), timeout=10)
    assert failed.value.code() == grpc.StatusCode.UNAVAILABLE
    assert auth.received["ValidateToken"] == MAX_ATTEMPTS


def test_an_idempotent_rpc_is_retried_on_internal(served):
    # A stream cut before its status arrived (a balancer's replica died mid-answer) is INTERNAL.
    auth, stub = served
    auth.failures["ValidateToken"] = [grpc.StatusCode.INTERNAL]
    assert stub.ValidateToken(auth_service_pb2.ValidateTokenRequest(token="t"), timeout=10).subject == "ada"
    assert auth.received["ValidateToken"] == 2


@pytest.mark.parametrize("code", [grpc.StatusCode.UNKNOWN, grpc.StatusCode.UNAUTHENTICATED])
def test_a_code_that_tells_the_outcome_is_not_retried(served, code):
    auth, stub = served
    auth.failures["ListUsers"] = [code]
    with pytest.raises(grpc.RpcError) as failed:
        stub.ListUsers(auth_service_pb2.ListUsersRequest(), timeout=10)
    assert failed.value.code() == code
    assert auth.received["ListUsers"] == 1


def test_a_non_idempotent_rpc_is_not_retried(served):
    auth, stub = served
    auth.failures["Login"] = [grpc.StatusCode.UNAVAILABLE]
    with pytest.raises(grpc.RpcError) as failed:
        stub.Login(auth_service_pb2.LoginRequest(username="ada", password="x"), timeout=10)
    assert failed.value.code() == grpc.StatusCode.UNAVAILABLE
    assert auth.received["Login"] == 1
