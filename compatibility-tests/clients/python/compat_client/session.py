"""What every live feature shares: the environment the harness sets, one channel per server,
the SDK's stubs, and the admin token (Login at AUTH_TARGET over gRPC)."""

import os
import uuid

import grpc
from acme.auth.v1 import auth_service_pb2, auth_service_pb2_grpc
from acme.person.v1 import person_service_pb2_grpc


class UsageError(Exception):
    """The driver was started wrongly (arguments, environment): exit non-zero, report nothing."""


# Every call gets a deadline, so a server that hangs fails a feature instead of the run.
TIMEOUT = 30.0


def bearer(token):
    return (("authorization", f"Bearer {token}"),)


class Session:
    """One driver run: the run id, the admin's credentials, a channel per server."""

    def __init__(self, server):
        self.run = _require("COMPAT_RUN_ID")
        self.admin_username = _require("AUTH_ADMIN_USERNAME")
        self.admin_password = _require("AUTH_ADMIN_PASSWORD")
        self._auth_target = _require("AUTH_TARGET")
        self.auth_channel = grpc.insecure_channel(self._auth_target)
        self.auth = auth_service_pb2_grpc.AuthServiceStub(self.auth_channel)
        # person-spring features need both servers (tokens come from auth-node).
        self._person_target = _require("PERSON_TARGET") if server == "person-spring" else None
        self._person_channel = None
        self._person = None
        self._admin_token = None

    @property
    def person_channel(self):
        if self._person_channel is None:
            self._person_channel = grpc.insecure_channel(self._person_target)
        return self._person_channel

    @property
    def person(self):
        if self._person is None:
            self._person = person_service_pb2_grpc.PersonServiceStub(self.person_channel)
        return self._person

    def login(self, username, password, **kwargs):
        """A token from AuthService/Login."""
        request = auth_service_pb2.LoginRequest(username=username, password=password)
        return self.auth.Login(request, timeout=kwargs.pop("timeout", TIMEOUT), **kwargs).token

    @property
    def admin_token(self):
        if self._admin_token is None:
            self._admin_token = self.login(self.admin_username, self.admin_password)
        return self._admin_token

    @property
    def admin(self):
        """Metadata of an admin call."""
        return bearer(self.admin_token)

    def name(self, suffix):
        """A person name of this run: `<run> <suffix>`."""
        return f"{self.run} {suffix}"

    def username(self, suffix):
        """A username of this run: `<run>-<suffix>`."""
        return f"{self.run}-{suffix}"

    def close(self):
        self.auth_channel.close()
        if self._person_channel is not None:
            self._person_channel.close()


def new_request_id():
    return str(uuid.uuid4())


def _require(name):
    value = os.environ.get(name)
    if not value:
        raise UsageError(f"environment variable {name} is not set")
    return value
