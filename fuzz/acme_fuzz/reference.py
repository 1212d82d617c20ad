"""Whether a service's own decoder takes some bytes as a request — what decides if it must
answer INVALID_ARGUMENT. The runtimes differ at the edges: protobuf-es (auth-node) reads a known
field with the wire type its schema declares, whatever the tag says; protobuf-java
(person-spring) takes a tag with an out-of-range field number as an unknown field; upb (the
Python SDK) refuses both. So the suite asks each service's own library, through a small
long-running helper on its SDK: fuzz/decode-es.mjs (Node) and fuzz/DecodeJava.java (Java)."""

from __future__ import annotations

import pathlib
import subprocess
from collections.abc import Callable

from . import inputs

HERE = pathlib.Path(__file__).resolve().parent.parent


class Helper:
    """A helper process that answers "1" (decodes) or "0" per "<type> <hex>" line."""

    def __init__(self, command: list[str]):
        self.process = subprocess.Popen(command, cwd=HERE, text=True, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE)

    def __call__(self, rpc: str, data: bytes) -> bool:
        type_name = inputs.TYPES[rpc].DESCRIPTOR.full_name
        self.process.stdin.write(f"{type_name} {data.hex()}\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline().strip()
        if answer not in ("0", "1"):
            raise RuntimeError(f"the decoder helper answered {answer!r}")
        return answer == "1"

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=10)


def for_service(service: str, node: str, java_classpath: str) -> Callable[[str, bytes], bool]:
    if service == "auth-node":
        return Helper([node, str(HERE / "decode-es.mjs")])
    return Helper(["java", "-cp", java_classpath, str(HERE / "DecodeJava.java")])
