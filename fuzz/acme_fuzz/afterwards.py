"""What must still hold once the fuzzing is over: the service is healthy, a valid call of every
RPC succeeds with a real client (grpcio and the Python SDK), no call that failed left a person
behind, and the service's resident memory stayed under its bound."""

from __future__ import annotations

import subprocess
import uuid

import grpc
from acme.auth.v1 import auth_service_pb2 as auth
from acme.auth.v1 import auth_service_pb2_grpc as auth_grpc
from acme.auth.v1 import user_pb2
from acme.person.v1 import person_pb2
from acme.person.v1 import person_service_pb2 as ps
from acme.person.v1 import person_service_pb2_grpc as ps_grpc

SECONDS = 20


def login(auth_target: str, username: str, password: str) -> str:
    with grpc.insecure_channel(auth_target) as channel:
        return auth_grpc.AuthServiceStub(channel).Login(
            auth.LoginRequest(username=username, password=password), timeout=SECONDS).token


def rss_mib(container: str) -> float:
    """The resident memory of the container's main process, read from the host's /proc."""
    pid = subprocess.run(["docker", "inspect", "-f", "{{.State.Pid}}", container],
                         check=True, capture_output=True, text=True).stdout.strip()
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {container}")


def healthy(target: str) -> bool:
    """grpc.health.v1.Health/Check("") is SERVING (field 1 = 1), with raw bytes: the health
    protos are not part of the SDK."""
    with grpc.insecure_channel(target) as channel:
        check = channel.unary_unary("/grpc.health.v1.Health/Check",
                                    request_serializer=lambda b: b, response_deserializer=lambda b: b)
        return check(b"", timeout=SECONDS) == b"\x08\x01"


def every_rpc_person(target: str, token: str, name: str) -> list[str]:
    """A valid call of each PersonService RPC; the problems, if any."""
    problems = []
    metadata = (("authorization", f"Bearer {token}"),)
    with grpc.insecure_channel(target) as channel:
        stub = ps_grpc.PersonServiceStub(channel)
        person = person_pb2.Person(name=name, age=30, hobbies=["chess"])
        calls = {
            "RegisterPerson": lambda: stub.RegisterPerson(
                ps.RegisterPersonRequest(request_id=str(uuid.uuid4()), person=person), metadata=metadata,
                timeout=SECONDS).person.id,
            "RegisterPeople": lambda: stub.RegisterPeople(
                iter([ps.RegisterPeopleRequest(request_id=str(uuid.uuid4()), person=person)] * 2),
                metadata=metadata, timeout=SECONDS).count,
            "SyncPeople": lambda: [r.id for r in stub.SyncPeople(
                iter([ps.SyncPeopleRequest(request_id=str(uuid.uuid4()), person=person)]), metadata=metadata,
                timeout=SECONDS)],
            "ListPeople": lambda: [r.person.id for r in stub.ListPeople(
                ps.ListPeopleRequest(name_contains=name), metadata=metadata, timeout=SECONDS)],
        }
        results = {}
        for rpc, call in calls.items():
            results[rpc] = _ok(rpc, call, problems)
        if results.get("RegisterPerson"):
            _ok("GetPerson", lambda: stub.GetPerson(ps.GetPersonRequest(id=results["RegisterPerson"]),
                                                    metadata=metadata, timeout=SECONDS), problems)
        if results.get("RegisterPeople") != 2:
            problems.append(f"RegisterPeople stored {results.get('RegisterPeople')} of 2")
        if results.get("ListPeople") is not None and len(results["ListPeople"]) != 4:
            problems.append(f"ListPeople found {len(results['ListPeople'])} of the 4 people just stored")
    return problems


def every_rpc_auth(target: str, admin: tuple[str, str], run_id: str) -> list[str]:
    problems = []
    with grpc.insecure_channel(target) as channel:
        stub = auth_grpc.AuthServiceStub(channel)
        token = _ok("Login", lambda: stub.Login(auth.LoginRequest(username=admin[0], password=admin[1]),
                                               timeout=SECONDS).token, problems)
        if not token:
            return problems
        metadata = (("authorization", f"Bearer {token}"),)
        username = f"fz{run_id}after"
        _ok("ValidateToken", lambda: stub.ValidateToken(auth.ValidateTokenRequest(token=token), timeout=SECONDS),
            problems)
        _ok("CreateUser", lambda: stub.CreateUser(
            auth.CreateUserRequest(username=username, password="fuzz-after-password",
                                   roles=[user_pb2.ROLE_USER]), metadata=metadata, timeout=SECONDS), problems)
        _ok("DisableUser", lambda: stub.DisableUser(auth.DisableUserRequest(username=username), metadata=metadata,
                                                    timeout=SECONDS), problems)
        _ok("ListUsers", lambda: stub.ListUsers(auth.ListUsersRequest(), metadata=metadata, timeout=SECONDS),
            problems)
    return problems


def stored_names(target: str, token: str, prefix: str) -> set[str]:
    """The names of every stored person whose name contains prefix, page by page."""
    metadata = (("authorization", f"Bearer {token}"),)
    names: set[str] = set()
    with grpc.insecure_channel(target) as channel:
        stub = ps_grpc.PersonServiceStub(channel)
        for page in range(1000):
            got = [r.person.name for r in stub.ListPeople(
                ps.ListPeopleRequest(name_contains=prefix, page=page, limit=10_000), metadata=metadata,
                timeout=60)]
            names.update(got)
            if len(got) < 10_000:
                return names
    raise RuntimeError("more than ten million fuzz people?")


def _ok(rpc, call, problems):
    try:
        return call()
    except grpc.RpcError as e:
        problems.append(f"a valid {rpc} failed afterwards: {e.code().name} {e.details()}")
        return None
