"""person-spring features (README "person-spring features"), through the SDK's
PersonServiceStub over gRPC. Every call carries the admin token unless a feature is about
the token itself."""

import time
import uuid

import grpc
from acme.auth.v1 import auth_service_pb2, user_pb2
from acme.person.v1 import person_pb2, person_service_pb2 as ps

from . import next_schema
from .errors import expect_code, expect_rule_id, expect_violations, violation_key
from .report import CheckFailed, check
from .session import TIMEOUT, bearer, new_request_id
from .streams import RequestQueue

Code = grpc.StatusCode


def _register(s, person, request_id=None, metadata=None):
    request = ps.RegisterPersonRequest(request_id=request_id or new_request_id(), person=person)
    return s.person.RegisterPerson(request, metadata=metadata or s.admin, timeout=TIMEOUT).person


def _get(s, person_id):
    return s.person.GetPerson(ps.GetPersonRequest(id=person_id), metadata=s.admin,
                              timeout=TIMEOUT).person


def _list(s, **fields):
    request = ps.ListPeopleRequest(**fields)
    return [r.person for r in s.person.ListPeople(request, metadata=s.admin, timeout=TIMEOUT)]


def _is_uuid(text):
    try:
        return str(uuid.UUID(text)) == text.lower()
    except ValueError:
        return False


def _without_server_fields(person):
    """`person` as the client sent it: id and created_at are the server's."""
    copy = person_pb2.Person()
    copy.CopyFrom(person)
    copy.ClearField("id")
    copy.ClearField("created_at")
    return copy


def _stamp(person):
    return (person.created_at.seconds, person.created_at.nanos)


def _short(message):
    text = str(message).replace("\n", " ")
    return text if len(text) <= 300 else text[:300] + "…"


def unary(s):
    sent = person_pb2.Person(name=s.name("unary"), age=42, hobbies=["chess", "go"],
                             address=person_pb2.Address(city="Zurich", zip_code="8001"))
    request_id = new_request_id()
    stored = _register(s, sent, request_id)
    check(_is_uuid(stored.id), f"id {stored.id!r} is not a UUID")
    check(stored.HasField("created_at"), "created_at is not set")
    check(_without_server_fields(stored) == sent,
          f"stored person differs from the one sent: {_short(stored)}")
    read = _get(s, stored.id)
    check(read == stored, f"GetPerson {_short(read)} != RegisterPerson {_short(stored)}")
    again = _register(s, sent, request_id)
    check(again.id == stored.id, f"same request_id gave id {again.id}, first {stored.id}")


def client_stream(s):
    requests = (ps.RegisterPeopleRequest(person=person_pb2.Person(name=s.name(f"cs {i}"), age=i))
                for i in range(25))
    response = s.person.RegisterPeople(requests, metadata=s.admin, timeout=TIMEOUT)
    check(response.count == 25, f"count {response.count}, expected 25")
    check(not response.ids_omitted, "ids_omitted is true")
    check(len(response.ids) == 25 and len(set(response.ids)) == 25,
          f"expected 25 distinct ids, got {len(response.ids)} ({len(set(response.ids))} distinct)")
    seventh = _get(s, response.ids[7])
    check(seventh.name == s.name("cs 7"), f"ids[7] is {seventh.name!r}, expected {s.name('cs 7')!r}")


def server_stream(s):
    ids = {_register(s, person_pb2.Person(name=s.name(f"ss {i}"), age=i)).id for i in range(5)}
    first = _list(s, name_contains=s.name("ss"), limit=3)
    second = _list(s, name_contains=s.name("ss"), limit=3, page=1)
    check(len(first) == 3, f"page 0 had {len(first)} people, expected 3")
    check(len(second) == 2, f"page 1 had {len(second)} people, expected 2")
    listed = [p.id for p in first + second]
    check(len(set(listed)) == 5 and set(listed) == ids,
          f"pages listed {listed}, registered {sorted(ids)}")
    # Pages are slices of one order (created_at, id), so the stamps never go back across both.
    stamps = [_stamp(p) for p in first + second]
    check(stamps == sorted(stamps), f"created_at decreases along the stream: {stamps}")


def bidi(s):
    a = ps.SyncPeopleRequest(request_id=new_request_id(),
                             person=person_pb2.Person(name=s.name("bidi a"), age=30))
    b = ps.SyncPeopleRequest(request_id=new_request_id(),
                             person=person_pb2.Person(name=s.name("bidi b"), age=200))
    c = ps.SyncPeopleRequest(request_id=new_request_id(),
                             person=person_pb2.Person(name=s.name("bidi c"), age=31))
    requests = RequestQueue()
    call = s.person.SyncPeople(requests, metadata=s.admin, timeout=TIMEOUT)
    try:
        answers = []
        for request in (a, b, c):
            # One at a time: the next item goes out only after this one's answer came back.
            requests.send(request)
            answer = next(call)
            check(answer.request_id == request.request_id,
                  f"answer {_short(answer)} does not repeat request_id {request.request_id}")
            answers.append(answer)
        requests.close()
        rest = list(call)
        check(not rest, f"{len(rest)} answers after half-close")
        check(call.code() == Code.OK, f"stream ended {call.code().name}: {call.details()}")
    finally:
        call.cancel()
    ra, rb, rc = answers
    for name, answer in (("A", ra), ("C", rc)):
        check(answer.WhichOneof("result") == "id" and _is_uuid(answer.id),
              f"{name} answered {_short(answer)}, expected an id")
    check(ra.id != rc.id, "A and C got the same id")
    check(rb.WhichOneof("result") == "error", f"B answered {_short(rb)}, expected an error")
    check(rb.error.code == 3, f"B's error code {rb.error.code}, expected 3")
    keys = [violation_key(v) for v in rb.error.violations]
    check("person.age/int32.gte_lte" in keys, f"B's violations {keys} lack person.age/int32.gte_lte")

    # A second stream resending A: the request_id makes it idempotent.
    requests = RequestQueue()
    requests.send(a)
    requests.close()
    again = list(s.person.SyncPeople(requests, metadata=s.admin, timeout=TIMEOUT))
    check(len(again) == 1 and again[0].request_id == a.request_id
          and again[0].WhichOneof("result") == "id",
          f"resent A answered {[_short(m) for m in again]}")
    check(again[0].id == ra.id, f"resent A got id {again[0].id}, first {ra.id}")


def auth_metadata(s):
    get = ps.GetPersonRequest(id=new_request_id())
    expect_code(Code.UNAUTHENTICATED, s.person.GetPerson, get, timeout=TIMEOUT)
    expect_code(Code.UNAUTHENTICATED, s.person.GetPerson, get,
                metadata=(("authorization", "Bearer garbage"),), timeout=TIMEOUT)
    expect_code(Code.NOT_FOUND, s.person.GetPerson, get, metadata=s.admin, timeout=TIMEOUT)

    username, password = s.username("user"), f"{s.run}-user-password"
    s.auth.CreateUser(auth_service_pb2.CreateUserRequest(
        username=username, password=password, roles=[user_pb2.ROLE_USER]),
        metadata=s.admin, timeout=TIMEOUT)
    user = bearer(s.login(username, password))
    _register(s, person_pb2.Person(name=s.name("by user"), age=5), metadata=user)
    s.auth.DisableUser(auth_service_pb2.DisableUserRequest(username=username),
                       metadata=s.admin, timeout=TIMEOUT)
    expect_code(Code.UNAUTHENTICATED, _register, s,
                person_pb2.Person(name=s.name("by disabled user"), age=5), metadata=user)


def deadline(s):
    dl = ps.RegisterPeopleRequest(request_id=new_request_id(),
                                  person=person_pb2.Person(name=s.name("dl"), age=1))
    requests = RequestQueue()
    requests.send(dl)
    # Never half-closed: the server waits for more until the 500 ms deadline ends the call.
    future = s.person.RegisterPeople.future(requests, metadata=s.admin, timeout=0.5)
    start = time.monotonic()
    try:
        expect_code(Code.DEADLINE_EXCEEDED, future.result, timeout=5)
    except grpc.FutureTimeoutError:
        raise CheckFailed("no DEADLINE_EXCEEDED within 5 s")
    finally:
        future.cancel()
        requests.close()  # lets grpcio's request thread finish
    elapsed = time.monotonic() - start
    check(0.45 <= elapsed < 5, f"DEADLINE_EXCEEDED after {elapsed:.2f} s, want 0.5 s")
    # A client that saw an error cannot know whether the stream was stored (a commit and the
    # deadline can cross); the contract makes repeating it with the same request_id safe.
    stored = s.person.RegisterPeople(iter([dl]), metadata=s.admin, timeout=TIMEOUT)
    check(stored.count == 1, f"the repeated stream stored {stored.count} people, want 1")
    found = _list(s, name_contains=s.name("dl"))
    check(len(found) == 1, f"{len(found)} people '<run> dl' after the deadline and the repeat, want 1")
    check(found[0].id == stored.ids[0],
          f"the listed person {found[0].id} is not the one the repeat answered ({stored.ids[0]})")


def cancel_mid_stream(s):
    requests = RequestQueue()
    requests.expect(200)
    future = s.person.RegisterPeople.future(requests, metadata=s.admin, timeout=TIMEOUT)
    try:
        for i in range(200):
            requests.send(ps.RegisterPeopleRequest(
                person=person_pb2.Person(name=s.name(f"cancel {i}"), age=i % 150)))
        check(requests.all_taken.wait(TIMEOUT), f"grpcio took only {requests.taken} of 200")
        time.sleep(0.3)  # let the last messages leave the client before cancelling
        check(not future.done(), "the call ended before the client cancelled it: "
              f"{future.code().name if future.done() else ''}")
        future.cancel()
        check(future.code() == Code.CANCELLED, f"client saw {future.code().name}, not CANCELLED")
    finally:
        future.cancel()
        requests.close()
    # No partial batch, ever: polled every 200 ms for 2 s.
    deadline_at = time.monotonic() + 2
    while time.monotonic() < deadline_at:
        left = _list(s, name_contains=s.name("cancel"))
        check(not left, f"{len(left)} people '<run> cancel' stored after the cancel")
        time.sleep(0.2)


def error_details(s):
    error = expect_code(Code.INVALID_ARGUMENT, _register, s, person_pb2.Person(name="", age=200))
    expect_violations(error, "person.name/string.min_len", "person.age/int32.gte_lte")

    error = expect_code(Code.INVALID_ARGUMENT, _register, s,
                        person_pb2.Person(id=new_request_id(), name=s.name("with id"), age=1))
    expect_rule_id(error, "person.server_fields_unset")

    error = expect_code(Code.INVALID_ARGUMENT, _get, s, "not-a-uuid")
    expect_violations(error, "id/string.uuid")

    expect_code(Code.NOT_FOUND, _get, s, new_request_id())

    request_id = new_request_id()
    _register(s, person_pb2.Person(name=s.name("first"), age=1), request_id)
    expect_code(Code.ALREADY_EXISTS, _register, s,
                person_pb2.Person(name=s.name("second"), age=2), request_id)


def large_message(s):
    # 500 distinct hobbies of 2,048 characters (the schema's limits): over 1 MB on the wire.
    hobbies = [f"{i:04d}" + "h" * 2044 for i in range(500)]
    sent = person_pb2.Person(name=s.name("large"), age=50, hobbies=hobbies)
    check(all(len(h) == 2048 for h in hobbies), "test data: hobbies are not 2,048 characters")
    check(sent.ByteSize() > 1_000_000, f"test data: only {sent.ByteSize()} bytes")
    stored = _register(s, sent)
    check(_without_server_fields(stored) == sent, "stored person differs from the one sent")
    wire = stored.SerializeToString()
    read = _get(s, stored.id)
    check(read.SerializeToString() == wire, "GetPerson differs from RegisterPerson's answer")
    listed = _list(s, name_contains=s.name("large"))
    check(len(listed) == 1, f"ListPeople returned {len(listed)} people, expected 1")
    check(listed[0].SerializeToString() == wire, "ListPeople differs from RegisterPerson's answer")


UNICODE_NAME = ("Zo\u00eb \u00d8deg\u00e5rd \u674e\u96f7 \U0001F469\u200d\U0001F4BB "
                "\u0645\u0631\u062d\u0628\u0627 e\u0301 \U0001F680")


def unicode(s):
    sent = person_pb2.Person(name=s.name(UNICODE_NAME), age=20,
                             hobbies=["\u65e5\u672c\u8a9e", "\U0001F3B8"],
                             address=person_pb2.Address(city="Z\u00fcrich", zip_code="8001"))
    stored = _register(s, sent)
    for label, got in (("RegisterPerson", stored), ("GetPerson", _get(s, stored.id))):
        check(_without_server_fields(got) == sent, f"{label} changed the text: {_code_points(got)}")
    listed = _list(s, name_contains=s.name(UNICODE_NAME))
    check(len(listed) == 1 and _without_server_fields(listed[0]) == sent,
          f"ListPeople returned {[_code_points(p) for p in listed]}")

    # Limits count code points: 200 rockets (800 UTF-8 bytes, 400 UTF-16 units) fit, 201 do not.
    rockets = _register(s, person_pb2.Person(name="\U0001F680" * 200, age=1))
    check(rockets.name == "\U0001F680" * 200, f"200 x U+1F680 came back as {len(rockets.name)} code points")
    error = expect_code(Code.INVALID_ARGUMENT, _register, s,
                        person_pb2.Person(name="\U0001F680" * 201, age=1))
    expect_violations(error, "person.name/string.max_len")


def _code_points(person):
    return " ".join(f"U+{ord(c):04X}" for c in person.name) + f" hobbies={list(person.hobbies)}"


def field_presence(s):
    bare = _register(s, person_pb2.Person(name=s.name("no address"), age=3))
    check(not bare.HasField("address"), "RegisterPerson answered with an address")
    check(not _get(s, bare.id).HasField("address"), "GetPerson read back an address")

    error = expect_code(Code.INVALID_ARGUMENT, _register, s,
                        person_pb2.Person(name=s.name("empty address"), age=3,
                                          address=person_pb2.Address()))
    expect_violations(error, "person.address.city/string.min_len")

    zero = _register(s, person_pb2.Person(name=s.name("fp zero"), age=0))
    thirty = _register(s, person_pb2.Person(name=s.name("fp thirty"), age=30))
    explicit = ps.ListPeopleRequest(name_contains=s.name("fp"), max_age=0)
    check(explicit.HasField("max_age"), "test data: max_age=0 is not present")
    only_zero = _list(s, name_contains=s.name("fp"), max_age=0)
    check([p.id for p in only_zero] == [zero.id],
          f"max_age 0 listed {[p.name for p in only_zero]}, expected only {zero.name!r}")
    both = _list(s, name_contains=s.name("fp"))
    check(sorted(p.id for p in both) == sorted([zero.id, thirty.id]),
          f"without max_age listed {[p.name for p in both]}, expected both")


def unknown_fields(s):
    next_schema.register_with_nickname(s)


FEATURES = {
    "unary": unary,
    "client-stream": client_stream,
    "server-stream": server_stream,
    "bidi": bidi,
    "auth-metadata": auth_metadata,
    "deadline": deadline,
    "cancel-mid-stream": cancel_mid_stream,
    "error-details": error_details,
    "large-message": large_message,
    "unicode": unicode,
    "field-presence": field_presence,
    "unknown-fields": unknown_fields,
}
