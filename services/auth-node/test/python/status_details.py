"""status_details.py ADDRESS — what a Python grpcio client reads from the auth service's errors.

Calls Login over gRPC with the Python SDK (gen/python/src on sys.path) twice — once with
invalid fields, then with wrong passwords until the per-user limit answers — and prints, as
JSON, the status code and the google.rpc.Status details decoded from the standard
"grpc-status-details-bin" trailer: buf.validate.Violations and google.rpc.RetryInfo.
Run by test/status-details.test.ts, which also generates google/rpc/*_pb2 into PYTHONPATH.
"""

import json
import sys

import grpc
from acme.auth.v1 import auth_service_pb2, auth_service_pb2_grpc
from buf.validate import validate_pb2
from google.rpc import error_details_pb2, status_pb2


def status_of(error: grpc.RpcError) -> status_pb2.Status:
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            return status_pb2.Status.FromString(value)
    raise SystemExit(f"no grpc-status-details-bin trailer on {error.code()}")


def main(address: str) -> None:
    out = {}
    with grpc.insecure_channel(address) as channel:
        stub = auth_service_pb2_grpc.AuthServiceStub(channel)
        try:
            stub.Login(auth_service_pb2.LoginRequest(username="Bad Name", password=""))
            raise SystemExit("invalid login was accepted")
        except grpc.RpcError as error:
            status = status_of(error)
            violations = validate_pb2.Violations()
            assert status.details[0].Unpack(violations), status.details[0].type_url
            out["invalid"] = {
                "code": error.code().name,
                "status_code": status.code,
                "violations": [
                    [".".join(e.field_name for e in v.field.elements), v.rule_id] for v in violations.violations
                ],
            }
        for attempt in range(10):
            try:
                stub.Login(auth_service_pb2.LoginRequest(username="pyuser", password=f"wrong-{attempt}"))
            except grpc.RpcError as error:
                if error.code() != grpc.StatusCode.RESOURCE_EXHAUSTED:
                    continue
                retry = error_details_pb2.RetryInfo()
                assert status_of(error).details[0].Unpack(retry)
                trailers = dict(error.trailing_metadata() or ())
                out["limited"] = {
                    "code": error.code().name,
                    "after_attempts": attempt,
                    "retry_delay_seconds": retry.retry_delay.seconds,
                    "retry_after": trailers.get("retry-after"),
                }
                break
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1])
