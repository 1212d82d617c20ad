"""What a team outside the monorepo writes first, in Python: log in to auth-node, register a
person with person-spring and read it back over gRPC, with acme-contracts as installed from the
contracts' package index (pip install acme-contracts==VERSION --index-url …). Prints one line:
the SDK version installed, and the contracts version each service names in its
acme-contracts-version header. Targets and the admin's credentials come from the environment
(AUTH_TARGET, PERSON_TARGET, AUTH_ADMIN_USERNAME, AUTH_ADMIN_PASSWORD)."""

import importlib.metadata
import os
import uuid

import grpc
from acme.auth.v1 import auth_service_pb2, auth_service_pb2_grpc
from acme.person.v1 import person_pb2, person_service_pb2, person_service_pb2_grpc


def contracts_version(call) -> str | None:
    return dict(call.initial_metadata()).get("acme-contracts-version")


def main() -> None:
    with grpc.insecure_channel(os.environ["AUTH_TARGET"]) as auth, \
            grpc.insecure_channel(os.environ["PERSON_TARGET"]) as person:
        login, auth_call = auth_service_pb2_grpc.AuthServiceStub(auth).Login.with_call(
            auth_service_pb2.LoginRequest(username=os.environ["AUTH_ADMIN_USERNAME"],
                                          password=os.environ["AUTH_ADMIN_PASSWORD"]), timeout=20)
        people = person_service_pb2_grpc.PersonServiceStub(person)
        metadata = (("authorization", f"Bearer {login.token}"),)
        name = f"outside pip {uuid.uuid4()}"
        registered, person_call = people.RegisterPerson.with_call(
            person_service_pb2.RegisterPersonRequest(
                request_id=str(uuid.uuid4()), person=person_pb2.Person(name=name, age=41, hobbies=["maps"])),
            metadata=metadata, timeout=20)
        read = people.GetPerson(person_service_pb2.GetPersonRequest(id=registered.person.id),
                                metadata=metadata, timeout=20).person
        if read.name != name or read.age != 41:
            raise SystemExit(f"read back {read.name}/{read.age}, registered {name}")
        print(f"pip: acme-contracts {importlib.metadata.version('acme-contracts')}: logged in, registered and read "
              f"back {registered.person.id}; auth-node runs contracts {contracts_version(auth_call)}, "
              f"person-spring runs contracts {contracts_version(person_call)}")


if __name__ == "__main__":
    main()
