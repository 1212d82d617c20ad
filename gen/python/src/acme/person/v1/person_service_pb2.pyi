from acme.person.v1 import person_pb2 as _person_pb2
from buf.validate import validate_pb2 as _validate_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RegisterPersonRequest(_message.Message):
    __slots__ = ("request_id", "person")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    PERSON_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    person: _person_pb2.Person
    def __init__(self, request_id: _Optional[str] = ..., person: _Optional[_Union[_person_pb2.Person, _Mapping]] = ...) -> None: ...

class RegisterPersonResponse(_message.Message):
    __slots__ = ("person",)
    PERSON_FIELD_NUMBER: _ClassVar[int]
    person: _person_pb2.Person
    def __init__(self, person: _Optional[_Union[_person_pb2.Person, _Mapping]] = ...) -> None: ...

class RegisterPeopleRequest(_message.Message):
    __slots__ = ("person", "request_id")
    PERSON_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    person: _person_pb2.Person
    request_id: str
    def __init__(self, person: _Optional[_Union[_person_pb2.Person, _Mapping]] = ..., request_id: _Optional[str] = ...) -> None: ...

class RegisterPeopleResponse(_message.Message):
    __slots__ = ("count", "ids", "ids_omitted")
    COUNT_FIELD_NUMBER: _ClassVar[int]
    IDS_FIELD_NUMBER: _ClassVar[int]
    IDS_OMITTED_FIELD_NUMBER: _ClassVar[int]
    count: int
    ids: _containers.RepeatedScalarFieldContainer[str]
    ids_omitted: bool
    def __init__(self, count: _Optional[int] = ..., ids: _Optional[_Iterable[str]] = ..., ids_omitted: _Optional[bool] = ...) -> None: ...

class GetPersonRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class GetPersonResponse(_message.Message):
    __slots__ = ("person",)
    PERSON_FIELD_NUMBER: _ClassVar[int]
    person: _person_pb2.Person
    def __init__(self, person: _Optional[_Union[_person_pb2.Person, _Mapping]] = ...) -> None: ...

class ListPeopleRequest(_message.Message):
    __slots__ = ("name_contains", "min_age", "max_age", "page", "limit", "page_token")
    NAME_CONTAINS_FIELD_NUMBER: _ClassVar[int]
    MIN_AGE_FIELD_NUMBER: _ClassVar[int]
    MAX_AGE_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    name_contains: str
    min_age: int
    max_age: int
    page: int
    limit: int
    page_token: str
    def __init__(self, name_contains: _Optional[str] = ..., min_age: _Optional[int] = ..., max_age: _Optional[int] = ..., page: _Optional[int] = ..., limit: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListPeopleResponse(_message.Message):
    __slots__ = ("person", "next_page_token")
    PERSON_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    person: _person_pb2.Person
    next_page_token: str
    def __init__(self, person: _Optional[_Union[_person_pb2.Person, _Mapping]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class SyncPeopleRequest(_message.Message):
    __slots__ = ("request_id", "person")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    PERSON_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    person: _person_pb2.Person
    def __init__(self, request_id: _Optional[str] = ..., person: _Optional[_Union[_person_pb2.Person, _Mapping]] = ...) -> None: ...

class SyncPeopleResponse(_message.Message):
    __slots__ = ("request_id", "id", "error")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    id: str
    error: SyncPeopleError
    def __init__(self, request_id: _Optional[str] = ..., id: _Optional[str] = ..., error: _Optional[_Union[SyncPeopleError, _Mapping]] = ...) -> None: ...

class SyncPeopleError(_message.Message):
    __slots__ = ("code", "message", "violations")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    VIOLATIONS_FIELD_NUMBER: _ClassVar[int]
    code: int
    message: str
    violations: _containers.RepeatedCompositeFieldContainer[_validate_pb2.Violation]
    def __init__(self, code: _Optional[int] = ..., message: _Optional[str] = ..., violations: _Optional[_Iterable[_Union[_validate_pb2.Violation, _Mapping]]] = ...) -> None: ...
