"""protoc-gen-python-grpcio: a protoc plugin that runs PyPI's grpcio-tools.

grpcio-tools compiles the Python, .pyi and gRPC Python generators into its own protoc
instead of shipping them as protoc-gen-* plugins, so buf cannot call them directly. This
adapter receives buf's CodeGeneratorRequest, hands the already-compiled descriptors to
grpcio-tools' protoc (--descriptor_set_in: nothing is parsed twice), and returns what it
wrote as a CodeGeneratorResponse.

Messages and type stubs are generated for every requested file; gRPC stubs only for the
files that declare a service, so message-only files get no empty *_pb2_grpc.py.

Python code embeds each file's serialized options. `go_package` means nothing to Python, and
validate.proto's names a Go module host, so it is dropped before generation; every option
Python reads (and every buf.validate rule) is kept.
"""

import pathlib
import sys
import tempfile

from google.protobuf import descriptor_pb2
from google.protobuf.compiler import plugin_pb2
from grpc_tools import protoc


def run_protoc(args: list[str]) -> None:
    # grpc_tools.protoc.main expects argv[0] to be the program name.
    code = protoc.main(["protoc", *args])
    if code != 0:
        raise RuntimeError(f"grpcio-tools protoc exited with {code}")


def generate(request: plugin_pb2.CodeGeneratorRequest) -> plugin_pb2.CodeGeneratorResponse:
    response = plugin_pb2.CodeGeneratorResponse()
    response.supported_features = plugin_pb2.CodeGeneratorResponse.FEATURE_PROTO3_OPTIONAL
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        out = work / "out"
        out.mkdir()
        files = descriptor_pb2.FileDescriptorSet(file=request.proto_file)
        for file in files.file:
            file.options.ClearField("go_package")
        descriptors = work / "descriptors.binpb"
        descriptors.write_bytes(files.SerializeToString())
        common = [f"--descriptor_set_in={descriptors}"]
        wanted = list(request.file_to_generate)
        with_services = [f.name for f in request.proto_file if f.name in wanted and f.service]
        run_protoc([*common, f"--python_out={out}", f"--pyi_out={out}", *wanted])
        if with_services:
            run_protoc([*common, f"--grpc_python_out={out}", *with_services])
        for path in sorted(p for p in out.rglob("*") if p.is_file()):
            generated = response.file.add()
            generated.name = path.relative_to(out).as_posix()
            generated.content = path.read_text(encoding="utf-8")
    return response


def main() -> None:
    request = plugin_pb2.CodeGeneratorRequest.FromString(sys.stdin.buffer.read())
    try:
        response = generate(request)
    except RuntimeError as err:
        response = plugin_pb2.CodeGeneratorResponse(error=str(err))
    sys.stdout.buffer.write(response.SerializeToString())


if __name__ == "__main__":
    main()
