"""Error handling with the real types: the gRPC status code, the google.rpc.Status in
grpc-status-details-bin (grpcio-status), buf.validate.Violations (the SDK's buf.validate
module, which protovalidate reads too) and google.rpc.RetryInfo (googleapis-common-protos)."""

import grpc
from buf.validate import validate_pb2
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from .report import CheckFailed, check


def expect_code(code, call, *args, **kwargs):
    """Calls `call(*args, **kwargs)` (a stub method or any function making RPCs) and returns the
    grpc.RpcError it must raise with `code`. An OK answer or another code fails the feature."""
    try:
        call(*args, **kwargs)
    except grpc.RpcError as error:
        check(error.code() == code,
              f"expected {code.name}, got {error.code().name}: {error.details()}")
        return error
    raise CheckFailed(f"expected {code.name}, got OK")


def rpc_status_of(error):
    """The google.rpc.Status the server put in grpc-status-details-bin. from_call also checks
    that its code and message agree with the gRPC status itself."""
    status = rpc_status.from_call(error)
    check(status is not None, f"{error.code().name} carries no grpc-status-details-bin")
    return status


def violation_key(violation):
    """`path/rule_id`, the path being field.elements[].field_name joined by '.' (README)."""
    path = ".".join(element.field_name for element in violation.field.elements)
    return f"{path}/{violation.rule_id}"


def violations_of(error):
    """The violation keys of the one buf.validate.Violations detail of an INVALID_ARGUMENT."""
    status = rpc_status_of(error)
    found = [d for d in status.details if d.Is(validate_pb2.Violations.DESCRIPTOR)]
    check(len(found) == 1,
          f"expected one buf.validate.Violations detail, found {len(found)} of "
          f"{[d.type_url for d in status.details]}")
    violations = validate_pb2.Violations()
    found[0].Unpack(violations)
    return [violation_key(v) for v in violations.violations]


def expect_violations(error, *expected):
    """Every `expected` key (`path/rule_id`, or `/rule_id` for a message-level rule) is among the
    error's violations; the detail lists what was actually carried."""
    keys = violations_of(error)
    missing = [e for e in expected if e not in keys]
    check(not missing, f"violations {keys} lack {missing}")
    return keys


def retry_info_of(error):
    """The google.rpc.RetryInfo detail of an error (RESOURCE_EXHAUSTED after failed logins)."""
    status = rpc_status_of(error)
    for detail in status.details:
        if detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            info = error_details_pb2.RetryInfo()
            detail.Unpack(info)
            return info
    raise CheckFailed(f"no google.rpc.RetryInfo among {[d.type_url for d in status.details]}")


def expect_rule_id(error, rule_id):
    """A violation with `rule_id`, whatever its path (message-level CEL rules have none)."""
    keys = violations_of(error)
    check(any(key.split("/", 1)[1] == rule_id for key in keys),
          f"violations {keys} lack rule id {rule_id}")
    return keys
