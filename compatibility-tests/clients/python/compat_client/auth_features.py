"""auth-node features (README "auth-node features"), through the SDK's AuthServiceStub over
gRPC (the Python client speaks gRPC only; auth-node's other protocols are the TS client's)."""

import time
import unicodedata

import grpc
from acme.auth.v1 import auth_service_pb2 as auth, user_pb2

from . import next_schema
from .errors import expect_code, expect_violations, retry_info_of
from .report import check
from .session import TIMEOUT, bearer

Code = grpc.StatusCode


def _create_user(s, username, password, roles=(user_pb2.ROLE_USER,), metadata=None):
    request = auth.CreateUserRequest(username=username, password=password, roles=list(roles))
    return s.auth.CreateUser(request, metadata=metadata or s.admin, timeout=TIMEOUT).user


def _login(s, username, password, **kwargs):
    return s.auth.Login(auth.LoginRequest(username=username, password=password),
                        timeout=kwargs.pop("timeout", TIMEOUT), **kwargs)


def unary(s):
    login = _login(s, s.admin_username, s.admin_password)
    check(login.token, "Login answered without a token")
    check(login.expires_at.ToSeconds() > time.time(),
          f"expires_at {login.expires_at.ToJsonString()} is not in the future")
    validated = s.auth.ValidateToken(auth.ValidateTokenRequest(token=login.token), timeout=TIMEOUT)
    check(validated.subject == s.admin_username,
          f"subject {validated.subject!r}, expected {s.admin_username!r}")
    check(user_pb2.ROLE_ADMIN in validated.roles,
          f"roles {[user_pb2.Role.Name(r) for r in validated.roles]} lack ROLE_ADMIN")
    check(validated.expires_at == login.expires_at,
          f"ValidateToken expires_at {validated.expires_at.ToJsonString()} != "
          f"Login's {login.expires_at.ToJsonString()}")


def auth_metadata(s):
    expect_code(Code.UNAUTHENTICATED, s.auth.ListUsers, auth.ListUsersRequest(), timeout=TIMEOUT)
    users = s.auth.ListUsers(auth.ListUsersRequest(), metadata=s.admin, timeout=TIMEOUT).users
    check(s.admin_username in [u.username for u in users],
          f"the admin is not among {len(users)} listed users")
    username, password = s.username("user"), f"{s.run}-user-password"
    created = _create_user(s, username, password)
    check(created.username == username, f"CreateUser answered user {created.username!r}")
    user = bearer(_login(s, username, password).token)
    expect_code(Code.PERMISSION_DENIED, _create_user, s, s.username("user2"), password,
                metadata=user)


def deadline(s):
    # A login hashes with scrypt (about 50 ms): it cannot finish within 5 ms.
    expect_code(Code.DEADLINE_EXCEEDED, _login, s, s.admin_username, s.admin_password,
                timeout=0.005)


def error_details(s):
    bad = auth.CreateUserRequest(username="Bad Name!", password="short")
    error = expect_code(Code.INVALID_ARGUMENT, s.auth.CreateUser, bad, metadata=s.admin,
                        timeout=TIMEOUT)
    expect_violations(error, "username/string.pattern", "password/string.min_len",
                      "roles/repeated.min_items")

    expect_code(Code.UNAUTHENTICATED, _login, s, s.username("nobody"), "wrong")

    for attempt in range(5):
        expect_code(Code.UNAUTHENTICATED, _login, s, s.username("rl"), f"wrong-{attempt}")
    error = expect_code(Code.RESOURCE_EXHAUSTED, _login, s, s.username("rl"), "wrong-5")
    delay = retry_info_of(error).retry_delay
    check(delay.seconds > 0 or (delay.seconds == 0 and delay.nanos > 0),
          f"RetryInfo.retry_delay {delay.ToJsonString()} is not positive")


def large_message(s):
    # One character over the rule: refused by validation, with the violation.
    over = auth.ValidateTokenRequest(token="t" * 8193)
    error = expect_code(Code.INVALID_ARGUMENT, s.auth.ValidateToken, over, timeout=TIMEOUT)
    expect_violations(error, "token/string.max_len")
    # 1 MiB is over the server's message limit: refused before it is read.
    huge = auth.ValidateTokenRequest(token="t" * (1 << 20))
    expect_code(Code.RESOURCE_EXHAUSTED, s.auth.ValidateToken, huge, timeout=TIMEOUT)
    # The same channel still works afterwards.
    check(_login(s, s.admin_username, s.admin_password).token, "the next Login got no token")


# NFC on purpose: ä, ö as one code point each; the service compares NFC-normalised passwords.
UNICODE_PASSWORD = "p\u00e4ssw\u00f6rd-\u5bc6\u7801-\U0001F511-ok"


def unicode(s):
    nfc = unicodedata.normalize("NFC", UNICODE_PASSWORD)
    nfd = unicodedata.normalize("NFD", UNICODE_PASSWORD)
    check(nfc == UNICODE_PASSWORD and nfd != nfc, "test data: the NFD form equals the NFC one")
    username = s.username("uni")
    _create_user(s, username, nfc)
    for form, password in (("NFC", nfc), ("NFD", nfd)):
        login = _login(s, username, password)
        check(login.token, f"Login with the {form} password got no token")


def unknown_fields(s):
    next_schema.login_with_device_name(s)


FEATURES = {
    "unary": unary,
    "auth-metadata": auth_metadata,
    "deadline": deadline,
    "error-details": error_details,
    "large-message": large_message,
    "unicode": unicode,
    "unknown-fields": unknown_fields,
}
