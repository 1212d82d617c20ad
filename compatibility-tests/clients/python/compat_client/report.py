"""A golden mode's only stdout: one JSON object per feature (README "The golden wire vectors").
A feature is a function that returns normally on pass and raises on fail; everything else
(logs, grpc's own messages) goes to stderr."""

import json
import sys
import time
import traceback


class CheckFailed(Exception):
    """A feature's check did not hold; the message is the report's detail."""


def check(condition, detail):
    """Fails the running feature with `detail` unless `condition` holds."""
    if not condition:
        raise CheckFailed(detail)


def emit(feature, result, detail, ms):
    line = json.dumps({"feature": feature, "result": result, "detail": detail, "ms": ms})
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def run_feature(name, fn):
    """Runs one feature and prints its line. A failure of one feature (even a crash inside
    it) never stops the others: it becomes that feature's `fail` with the reason."""
    start = time.monotonic()
    try:
        fn()
        result, detail = "pass", ""
    except CheckFailed as failed:
        result, detail = "fail", str(failed)
    except Exception as error:  # a bug or an unexpected RPC outcome: still this feature's fail
        traceback.print_exc(file=sys.stderr)
        result, detail = "fail", f"{type(error).__name__}: {describe(error)}"
    emit(name, result, detail, int((time.monotonic() - start) * 1000))


def describe(error):
    """A short text for an exception; for a grpc error its code and message, not its repr."""
    code = getattr(error, "code", None)
    details = getattr(error, "details", None)
    if callable(code) and callable(details):
        return f"{code().name}: {details()}"
    return str(error)
