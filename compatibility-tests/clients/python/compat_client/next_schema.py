"""unknown-fields: a client of the newer schema (COMPAT_NEXT_DESCRIPTORS). Its messages come
from a fresh DescriptorPool, not the default one, which already holds the current schema
under the same names; the calls use the real method paths with those messages."""

import os

from acme.auth.v1 import auth_service_pb2
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

from .report import CheckFailed, check
from .session import TIMEOUT, new_request_id

_pool = None


def _classes(*names):
    global _pool
    if _pool is None:
        path = os.environ.get("COMPAT_NEXT_DESCRIPTORS")
        if not path:
            raise CheckFailed("COMPAT_NEXT_DESCRIPTORS is not set")
        files = descriptor_pb2.FileDescriptorSet()
        with open(path, "rb") as f:
            files.ParseFromString(f.read())
        _pool = descriptor_pool.DescriptorPool()
        _add_in_dependency_order(_pool, files.file)
    return [message_factory.GetMessageClass(_pool.FindMessageTypeByName(n)) for n in names]


def _add_in_dependency_order(pool, files):
    by_name = {f.name: f for f in files}
    added = set()

    def add(name):
        if name in added:
            return
        added.add(name)
        for dependency in by_name[name].dependency:
            add(dependency)
        pool.Add(by_name[name])

    for name in by_name:
        add(name)


def _unary(channel, path, request_class, response_class):
    return channel.unary_unary(path, request_serializer=request_class.SerializeToString,
                               response_deserializer=response_class.FromString)


def register_with_nickname(s):
    """person-spring: the registry stores only the fields of its own version."""
    Person, Address, RegisterReq, RegisterResp, GetReq, GetResp = _classes(
        "acme.person.v1.Person", "acme.person.v1.Address",
        "acme.person.v1.RegisterPersonRequest", "acme.person.v1.RegisterPersonResponse",
        "acme.person.v1.GetPersonRequest", "acme.person.v1.GetPersonResponse")
    check("nickname" in Person.DESCRIPTOR.fields_by_name, "the newer schema has no Person.nickname")
    sent = Person(name=s.name("next"), age=33, hobbies=["relay"],
                  address=Address(city="Basel", zip_code="4001"), nickname="Nicky \U0001F680")
    register = _unary(s.person_channel, "/acme.person.v1.PersonService/RegisterPerson",
                      RegisterReq, RegisterResp)
    get = _unary(s.person_channel, "/acme.person.v1.PersonService/GetPerson", GetReq, GetResp)
    stored = register(RegisterReq(request_id=new_request_id(), person=sent),
                      metadata=s.admin, timeout=TIMEOUT).person
    read = get(GetReq(id=stored.id), metadata=s.admin, timeout=TIMEOUT).person
    expected = Person()
    expected.CopyFrom(sent)
    expected.ClearField("nickname")
    for label, got in (("RegisterPerson", stored), ("GetPerson", read)):
        check(got.nickname == "", f"{label} returned nickname {got.nickname!r}")
        known = Person()
        known.CopyFrom(got)
        known.ClearField("id")
        known.ClearField("created_at")
        check(known == expected, f"{label} returned {known} instead of {expected}")
        check(got.id and got.HasField("created_at"), f"{label} lacks id or created_at")


def login_with_device_name(s):
    """auth-node: a LoginRequest with device_name = 3 logs in; the token is a real one."""
    LoginReq, LoginResp = _classes("acme.auth.v1.LoginRequest", "acme.auth.v1.LoginResponse")
    check("device_name" in LoginReq.DESCRIPTOR.fields_by_name,
          "the newer schema has no LoginRequest.device_name")
    login = _unary(s.auth_channel, "/acme.auth.v1.AuthService/Login", LoginReq, LoginResp)
    response = login(LoginReq(username=s.admin_username, password=s.admin_password,
                              device_name=f"{s.run} laptop \U0001F4BB"), timeout=TIMEOUT)
    check(response.token, "Login answered without a token")
    validated = s.auth.ValidateToken(auth_service_pb2.ValidateTokenRequest(token=response.token),
                                     timeout=TIMEOUT)
    check(validated.subject == s.admin_username,
          f"ValidateToken of that token names {validated.subject!r}")
