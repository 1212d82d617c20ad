"""The table of schema edits the governance gate is tested against.

Each Case is a concrete change a developer might make to proto/, and the gate's expected
verdict: `found` names every breaking finding it must refuse, as (rule, element) — buf's rules
and the VALIDATE_… rules of the check plugin; for a lint or format case, `rule` is what the
failure must name; a case with neither is safe and the gate must pass. Edits are literal text
replacements, so a case fails loudly (instead of silently testing nothing) if the contract it
edits changes.
"""

import pathlib
from dataclasses import dataclass, field

PERSON = "proto/acme/person/v1/person.proto"
PERSON_SVC = "proto/acme/person/v1/person_service.proto"
USER = "proto/acme/auth/v1/user.proto"
AUTH_SVC = "proto/acme/auth/v1/auth_service.proto"


@dataclass(frozen=True)
class Replace:
    """Replace the one occurrence of `old` in `path` with `new`."""

    path: str
    old: str
    new: str


@dataclass(frozen=True)
class Move:
    """Rename a file (git mv)."""

    path: str
    to: str


@dataclass(frozen=True)
class Create:
    """Add a new file."""

    path: str
    text: str


@dataclass(frozen=True)
class Case:
    id: str
    edits: tuple = field(default_factory=tuple)
    rule: str | None = None
    why: str = ""
    found: tuple = ()


ROOT = pathlib.Path(__file__).resolve().parents[2]


def _text_between(path: str, start: str, end: str) -> str:
    text = (ROOT / path).read_text()
    return text[text.index(start):text.index(end)]


# Address as it stands in person.proto, for the case that moves it into a file of its own.
ADDRESS_MESSAGE = _text_between(PERSON, "// Address is the postal", "// Person is one entry")
ADDRESS_FILE = (
    'syntax = "proto3";\n\npackage acme.person.v1;\n\nimport "buf/validate/validate.proto";\n\n'
    'option java_multiple_files = true;\noption java_outer_classname = "AddressProto";\n'
    'option java_package = "com.acme.person.v1";\n\n' + ADDRESS_MESSAGE.rstrip("\n") + "\n"
)


BREAKING = [
    Case("field-renumbered", (Replace(PERSON, "int32 age = 3 [", "int32 age = 7 ["),), "FIELD_NO_DELETE",
         "the old number disappears; old clients' age would be read as an unknown field",
         found=(("FIELD_NO_DELETE", "acme.person.v1.Person.age"),)),
    Case("field-type-changed", (Replace(PERSON_SVC, "int64 count = 1;", "int32 count = 1;"),), "FIELD_SAME_TYPE",
         found=(("FIELD_SAME_TYPE", "acme.person.v1.RegisterPeopleResponse.count"),)),
    Case("field-deleted", (Replace(PERSON_SVC, "  bool ids_omitted = 3;\n", ""),), "FIELD_NO_DELETE",
         found=(("FIELD_NO_DELETE", "acme.person.v1.RegisterPeopleResponse.ids_omitted"),)),
    Case("field-deleted-and-reserved",
         (Replace(PERSON_SVC, "  bool ids_omitted = 3;\n", '  reserved 3;\n  reserved "ids_omitted";\n'),),
         "FIELD_NO_DELETE", "FILE rules refuse even a reserved deletion: generated code loses the accessor",
         found=(("FIELD_NO_DELETE", "acme.person.v1.RegisterPeopleResponse.ids_omitted"),)),
    Case("field-renamed", (Replace(PERSON, "string city = 1 [", "string town = 1 ["),), "FIELD_SAME_NAME",
         found=(("FIELD_SAME_JSON_NAME", "acme.person.v1.Address.town"), ("FIELD_SAME_NAME", "acme.person.v1.Address.town"))),
    Case("json-name-changed",
         (Replace(PERSON, "string zip_code = 2 [(buf.validate.field)", 'string zip_code = 2 [json_name = "postcode", (buf.validate.field)'),),
         "FIELD_SAME_JSON_NAME",
         found=(("FIELD_SAME_JSON_NAME", "acme.person.v1.Address.zip_code"),)),
    Case("field-cardinality-changed",
         (Replace(PERSON_SVC, "optional int32 min_age = 2 [", "int32 min_age = 2 ["),), "FIELD_SAME_CARDINALITY",
         found=(("FIELD_SAME_CARDINALITY", "acme.person.v1.ListPeopleRequest.min_age"),)),
    Case("field-moved-into-oneof",
         (Replace(PERSON_SVC, "  string request_id = 1;\n  // result is the stored id, or the reason the item was not stored.\n  oneof result {\n",
                  "  // result is the stored id, or the reason the item was not stored.\n  oneof result {\n    // request_id is the request_id of the item this answers.\n    string request_id = 1;\n"),),
         "FIELD_SAME_ONEOF",
         found=(("FIELD_SAME_CARDINALITY", "acme.person.v1.SyncPeopleResponse.request_id"), ("FIELD_SAME_ONEOF", "acme.person.v1.SyncPeopleResponse.request_id"))),
    Case("rpc-deleted", (Replace(PERSON_SVC, "  rpc GetPerson(GetPersonRequest) returns (GetPersonResponse);\n", ""),),
         "RPC_NO_DELETE",
         found=(("RPC_NO_DELETE", "acme.person.v1.PersonService.GetPerson"),)),
    Case("client-streaming-removed",
         (Replace(PERSON_SVC, "rpc RegisterPeople(stream RegisterPeopleRequest)", "rpc RegisterPeople(RegisterPeopleRequest)"),),
         "RPC_SAME_CLIENT_STREAMING",
         found=(("RPC_SAME_CLIENT_STREAMING", "acme.person.v1.PersonService.RegisterPeople"),)),
    Case("server-streaming-added",
         (Replace(PERSON_SVC, "returns (GetPersonResponse);", "returns (stream GetPersonResponse);"),),
         "RPC_SAME_SERVER_STREAMING",
         found=(("RPC_SAME_SERVER_STREAMING", "acme.person.v1.PersonService.GetPerson"),)),
    Case("bidi-made-unary",
         (Replace(PERSON_SVC, "rpc SyncPeople(stream SyncPeopleRequest) returns (stream SyncPeopleResponse);",
                  "rpc SyncPeople(SyncPeopleRequest) returns (SyncPeopleResponse);"),),
         "RPC_SAME_CLIENT_STREAMING",
         found=(("RPC_SAME_CLIENT_STREAMING", "acme.person.v1.PersonService.SyncPeople"), ("RPC_SAME_SERVER_STREAMING", "acme.person.v1.PersonService.SyncPeople"))),
    Case("request-type-changed",
         (Replace(AUTH_SVC, "rpc ListUsers(ListUsersRequest)", "rpc ListUsers(ValidateTokenRequest)"),),
         "RPC_SAME_REQUEST_TYPE",
         found=(("RPC_SAME_REQUEST_TYPE", "acme.auth.v1.AuthService.ListUsers"),)),
    Case("response-type-changed",
         (Replace(AUTH_SVC, "returns (DisableUserResponse);", "returns (CreateUserResponse);"),),
         "RPC_SAME_RESPONSE_TYPE",
         found=(("RPC_SAME_RESPONSE_TYPE", "acme.auth.v1.AuthService.DisableUser"),)),
    Case("package-renamed",
         (Replace(USER, "package acme.auth.v1;", "package acme.auth.v2;"),
          Replace(AUTH_SVC, "package acme.auth.v1;", "package acme.auth.v2;")),
         "FILE_SAME_PACKAGE",
         found=(("FILE_SAME_PACKAGE", "acme/auth/v1/auth_service.proto"), ("FILE_SAME_PACKAGE", "acme/auth/v1/user.proto"))),
    Case("enum-value-removed", (Replace(USER, "  // ROLE_ADMIN may also create and disable users.\n  ROLE_ADMIN = 2;\n", ""),),
         "ENUM_VALUE_NO_DELETE",
         found=(("ENUM_VALUE_NO_DELETE", "acme.auth.v1.ROLE_ADMIN"), ("VALIDATE_DEFINED_ONLY_TIGHTENED", "acme.auth.v1.CreateUserRequest.roles"))),
    Case("enum-value-renamed", (Replace(USER, "ROLE_USER = 1;", "ROLE_MEMBER = 1;"),
                                Replace(USER, "// ROLE_USER may", "// ROLE_MEMBER may")),
         "ENUM_VALUE_SAME_NAME",
         found=(("ENUM_VALUE_SAME_NAME", "acme.auth.v1.ROLE_MEMBER"),)),
    Case("enum-value-renumbered", (Replace(USER, "ROLE_ADMIN = 2;", "ROLE_ADMIN = 3;"),), "ENUM_VALUE_NO_DELETE",
         found=(("ENUM_VALUE_NO_DELETE", "acme.auth.v1.ROLE_ADMIN"), ("VALIDATE_DEFINED_ONLY_CHANGED", "acme.auth.v1.CreateUserRequest.roles"))),
    Case("message-renamed",
         (Replace(PERSON, "message Address {", "message PostalAddress {"),
          Replace(PERSON, "// Address is the postal", "// PostalAddress is the postal"),
          Replace(PERSON, "  Address address = 5;", "  PostalAddress address = 5;")),
         "MESSAGE_NO_DELETE",
         found=(("FIELD_SAME_TYPE", "acme.person.v1.Person.address"), ("MESSAGE_NO_DELETE", "acme.person.v1.Address"))),
    Case("message-moved-to-another-file",
         (Replace(PERSON, ADDRESS_MESSAGE, ""),
          Replace(PERSON, 'import "buf/validate/validate.proto";', 'import "acme/person/v1/address.proto";\nimport "buf/validate/validate.proto";'),
          Create("proto/acme/person/v1/address.proto", ADDRESS_FILE)),
         "MESSAGE_NO_DELETE",
         "FILE (not PACKAGE) rules: generated code of some languages is per file, so a move breaks imports",
         found=(("MESSAGE_NO_DELETE", "acme.person.v1.Address"),)),
    Case("file-renamed", (Move(USER, "proto/acme/auth/v1/users.proto"),
                          Replace(AUTH_SVC, 'import "acme/auth/v1/user.proto";', 'import "acme/auth/v1/users.proto";')),
         "FILE_NO_DELETE",
         found=(("FILE_NO_DELETE", "acme/auth/v1/user.proto"),)),
    Case("java-package-changed",
         (Replace(PERSON, 'option java_package = "com.acme.person.v1";', 'option java_package = "com.acme.people.v1";'),),
         "FILE_SAME_JAVA_PACKAGE",
         found=(("FILE_SAME_JAVA_PACKAGE", "acme/person/v1/person.proto"),)),
    Case("java-multiple-files-off",
         (Replace(USER, "option java_multiple_files = true;", "option java_multiple_files = false;"),),
         "FILE_SAME_JAVA_MULTIPLE_FILES",
         found=(("FILE_SAME_JAVA_MULTIPLE_FILES", "acme/auth/v1/user.proto"),)),
]

LINT_AND_FORMAT = [
    Case("uncommented-field", (Replace(PERSON, "  google.protobuf.Timestamp created_at = 6;\n",
                                       "  google.protobuf.Timestamp created_at = 6;\n  string nickname = 7;\n"),),
         "COMMENT_FIELD"),
    Case("camel-case-field", (Replace(PERSON, "  google.protobuf.Timestamp created_at = 6;\n",
                                      "  google.protobuf.Timestamp created_at = 6;\n  // nickName is what friends say.\n  string nickName = 7;\n"),),
         "FIELD_LOWER_SNAKE_CASE"),
    Case("rpc-without-own-request-type",
         (Replace(PERSON_SVC, "  rpc GetPerson(GetPersonRequest) returns (GetPersonResponse);\n",
                  "  rpc GetPerson(GetPersonRequest) returns (GetPersonResponse);\n\n"
                  "  // FindPerson finds a person.\n  rpc FindPerson(Person) returns (Person);\n"),),
         "RPC_REQUEST_STANDARD_NAME"),
    Case("enum-zero-value-not-unspecified",
         (Replace(USER, "// Role is what", "// Status is an account state.\nenum Status {\n  // STATUS_ACTIVE is active.\n"
                                            "  STATUS_ACTIVE = 0;\n}\n\n// Role is what"),),
         "ENUM_ZERO_VALUE_SUFFIX"),
    Case("not-buf-formatted", (Replace(PERSON, "  int32 age = 3 [", "  int32   age =   3 ["),), "not formatted"),
]

SAFE = [
    Case("field-added", (Replace(PERSON, "  google.protobuf.Timestamp created_at = 6;\n",
                                 "  google.protobuf.Timestamp created_at = 6;\n"
                                 "  // nickname is what friends call the person, at most 50 characters.\n"
                                 "  string nickname = 7 [(buf.validate.field).string.max_len = 50];\n"),)),
    Case("rpc-added",
         (Replace(PERSON_SVC, "  rpc GetPerson(GetPersonRequest) returns (GetPersonResponse);\n",
                  "  rpc GetPerson(GetPersonRequest) returns (GetPersonResponse);\n\n"
                  "  // CountPeople returns how many people are stored.\n"
                  "  rpc CountPeople(CountPeopleRequest) returns (CountPeopleResponse);\n"),
          Replace(PERSON_SVC, "// GetPersonResponse carries",
                  "// CountPeopleRequest asks for the number of stored people.\nmessage CountPeopleRequest {}\n\n"
                  "// CountPeopleResponse is the number of stored people.\nmessage CountPeopleResponse {\n"
                  "  // count is the number of stored people.\n  int64 count = 1;\n}\n\n// GetPersonResponse carries")),
         ),
    Case("comment-edited", (Replace(PERSON, "// age is the age in whole years", "// age is the person's age in whole years"),)),
    Case("enum-value-added", (Replace(USER, "  ROLE_ADMIN = 2;\n", "  ROLE_ADMIN = 2;\n  // ROLE_AUDITOR may read but not change.\n  ROLE_AUDITOR = 3;\n"),)),
    Case("message-added", (Replace(USER, "// User is an account",
                                   "// Session is a logged-in period.\nmessage Session {\n  // id identifies the session.\n"
                                   "  string id = 1;\n}\n\n// User is an account"),)),
    Case("file-added", (Create("proto/acme/auth/v1/audit.proto",
                               'syntax = "proto3";\n\npackage acme.auth.v1;\n\noption java_multiple_files = true;\n'
                               'option java_outer_classname = "AuditProto";\noption java_package = "com.acme.auth.v1";\n\n'
                               "// AuditEntry records one admin action.\nmessage AuditEntry {\n"
                               "  // action names what was done.\n  string action = 1;\n}\n"),)),
]

# buf.validate rule changes, judged by the gate's own validation-rule diff (buf does not judge
# rules). Person and Address travel both ways; the *Request messages only from clients; User
# only from servers.
USER_WITH_VALIDATE = (Replace(USER, 'import "google/protobuf/timestamp.proto";',
                              'import "buf/validate/validate.proto";\nimport "google/protobuf/timestamp.proto";'),)
RULES_BREAKING = [
    Case("rule-string-max-len-tightened",
         (Replace(PERSON, "    min_len: 1\n    max_len: 200\n", "    min_len: 1\n    max_len: 100\n"),),
         "VALIDATE_MAX_LEN_TIGHTENED",
         found=(("VALIDATE_MAX_LEN_TIGHTENED", "acme.person.v1.Person.name"),)),
    Case("rule-string-min-len-tightened-on-a-request",
         (Replace(AUTH_SVC, "    min_len: 12\n", "    min_len: 16\n"),), "VALIDATE_MIN_LEN_TIGHTENED",
         found=(("VALIDATE_MIN_LEN_TIGHTENED", "acme.auth.v1.CreateUserRequest.password"),)),
    Case("rule-string-pattern-changed",
         (Replace(AUTH_SVC, 'pattern = "^[a-z][a-z0-9._-]{2,31}$"];\n  // password is the user\'s password, 1 to 256',
                  'pattern = "^[a-z][a-z0-9_]{2,31}$"];\n  // password is the user\'s password, 1 to 256'),),
         "VALIDATE_PATTERN_CHANGED",
         found=(("VALIDATE_PATTERN_CHANGED", "acme.auth.v1.LoginRequest.username"),)),
    Case("rule-int32-range-narrowed",
         (Replace(PERSON_SVC, "    gte: 0\n    lte: 10000\n", "    gte: 0\n    lte: 1000\n"),), "VALIDATE_LTE_TIGHTENED",
         found=(("VALIDATE_LTE_TIGHTENED", "acme.person.v1.ListPeopleRequest.limit"),)),
    Case("rule-repeated-min-items-raised",
         (Replace(AUTH_SVC, "    min_items: 1\n    max_items: 8\n", "    min_items: 2\n    max_items: 8\n"),),
         "VALIDATE_MIN_ITEMS_TIGHTENED",
         found=(("VALIDATE_MIN_ITEMS_TIGHTENED", "acme.auth.v1.CreateUserRequest.roles"),)),
    Case("rule-enum-not-in-grown",
         (Replace(AUTH_SVC, "        not_in: [0]\n", "        not_in: [0, 2]\n"),), "VALIDATE_NOT_IN_TIGHTENED",
         found=(("VALIDATE_NOT_IN_TIGHTENED", "acme.auth.v1.CreateUserRequest.roles"),)),
    Case("rule-required-added",
         (Replace(PERSON, "  Address address = 5;", "  Address address = 5 [(buf.validate.field).required = true];"),),
         "VALIDATE_REQUIRED_TIGHTENED",
         found=(("VALIDATE_REQUIRED_TIGHTENED", "acme.person.v1.Person.address"),)),
    Case("rule-enum-in-added",
         (Replace(AUTH_SVC, "        defined_only: true\n        not_in: [0]\n", "        defined_only: true\n        not_in: [0]\n        in: [1]\n"),),
         "VALIDATE_IN_TIGHTENED",
         found=(("VALIDATE_IN_TIGHTENED", "acme.auth.v1.CreateUserRequest.roles"),)),
    Case("rule-ignore-made-stricter",
         (Replace(PERSON_SVC, "  string request_id = 2 [(buf.validate.field) = {\n    ignore: IGNORE_IF_ZERO_VALUE\n    string: {uuid: true}\n  }];",
                  "  string request_id = 2 [(buf.validate.field).string.uuid = true];"),),
         "VALIDATE_IGNORE_TIGHTENED",
         found=(("VALIDATE_IGNORE_TIGHTENED", "acme.person.v1.RegisterPeopleRequest.request_id"),)),
    Case("rule-cel-added-on-a-request",
         (Replace(PERSON_SVC, "message ListPeopleRequest {\n", "message ListPeopleRequest {\n"
                  "  option (buf.validate.message).cel = {\n    id: \"page.bounded\"\n    message: \"page * limit must stay under a million\"\n"
                  "    expression: \"this.page * this.limit < 1000000\"\n  };\n"),),
         "VALIDATE_CEL_TIGHTENED",
         found=(("VALIDATE_CEL_TIGHTENED", "acme.person.v1.ListPeopleRequest"),)),
    Case("rule-cel-expression-changed",
         (Replace(PERSON_SVC, "this.min_age <= this.max_age", "this.min_age < this.max_age"),), "VALIDATE_CEL_CHANGED",
         found=(("VALIDATE_CEL_CHANGED", "acme.person.v1.ListPeopleRequest"),)),
]
# Rules that arrive with a new field of RegisterPersonRequest (sent by clients): an old client
# never sets the field, so its rules meet the field's absent value.
NEW_FIELD = "  // stores the person once.\n  string request_id = 1 [(buf.validate.field).string.uuid = true];\n"


def new_request_field(declaration: str) -> tuple:
    return (Replace(PERSON_SVC, NEW_FIELD, NEW_FIELD + "  // source says where the request came from.\n  " + declaration + "\n"),)


RULES_BREAKING += [
    Case("rule-new-field-with-min-len-on-a-request",
         new_request_field("string source = 3 [(buf.validate.field).string.min_len = 1];"), "VALIDATE_MIN_LEN_TIGHTENED",
         "every old client sends no source, and is refused with INVALID_ARGUMENT from the next deploy",
         found=(("VALIDATE_MIN_LEN_TIGHTENED", "acme.person.v1.RegisterPersonRequest.source"),)),
    Case("rule-new-required-field-on-a-request",
         new_request_field("Person source = 3 [(buf.validate.field).required = true];"), "VALIDATE_REQUIRED_TIGHTENED",
         found=(("VALIDATE_REQUIRED_TIGHTENED", "acme.person.v1.RegisterPersonRequest.source"),)),
    Case("rule-new-required-oneof-on-a-request",
         new_request_field("oneof origin {\n    option (buf.validate.oneof).required = true;\n    // web is set for the web form.\n"
                           "    string web = 3;\n    // batch is set for an import.\n    string batch = 4;\n  }"),
         "VALIDATE_ONEOF_REQUIRED_TIGHTENED",
         found=(("VALIDATE_ONEOF_REQUIRED_TIGHTENED", "acme.person.v1.RegisterPersonRequest.origin"),)),
]

RULES_SAFE = [
    Case("rule-new-field-with-max-len-on-a-request",
         new_request_field("string source = 3 [(buf.validate.field).string.max_len = 64];")),
    Case("rule-new-field-ignored-when-zero-on-a-request",
         new_request_field("string source = 3 [(buf.validate.field) = {\n    ignore: IGNORE_IF_ZERO_VALUE\n    string: {min_len: 3}\n  }];")),
    Case("rule-loosened-on-a-request",
         (Replace(PERSON_SVC, "string name_contains = 1 [(buf.validate.field).string.max_len = 200];",
                  "string name_contains = 1 [(buf.validate.field).string.max_len = 300];"),)),
    Case("rule-min-len-lowered-on-a-request", (Replace(AUTH_SVC, "    min_len: 12\n", "    min_len: 10\n"),)),
    Case("rule-int32-range-widened-on-a-request",
         (Replace(PERSON_SVC, "    gte: 0\n    lte: 10000\n", "    gte: 0\n    lte: 20000\n"),)),
    Case("rule-enum-defined-only-dropped-on-a-request",
         (Replace(AUTH_SVC, "        defined_only: true\n        not_in: [0]\n", "        not_in: [0]\n"),)),
    Case("rule-cel-removed-from-a-request",
         (Replace(PERSON_SVC, "message ListPeopleRequest {\n  option (buf.validate.message).cel = {\n    id: \"age_range.ordered\"\n"
                  "    message: \"min_age must not be greater than max_age\"\n"
                  "    expression: \"!has(this.min_age) || !has(this.max_age) || this.min_age <= this.max_age\"\n  };\n\n",
                  "message ListPeopleRequest {\n"),)),
    Case("rule-added-on-a-response", USER_WITH_VALIDATE + (
         Replace(USER, "  string username = 1;", "  string username = 1 [(buf.validate.field).string.min_len = 1];"),)),
]

