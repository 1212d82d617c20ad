"""The Python executor (compatibility-tests/executor/): Steps in on stdin, Outcomes out on
stdout, both length-prefixed. Each call is made with grpcio over a channel per server, its
requests decoded and its responses encoded by the SDK's own message classes. It judges
nothing; the harness does."""

import os
import queue
import struct
import sys
import time
import traceback

import grpc
from acme.auth.v1 import auth_service_pb2
from acme.compat.executor.v1 import executor_pb2
from acme.person.v1 import person_service_pb2
from google.protobuf import message_factory

SERVICES = {
    d.full_name: d
    for d in (person_service_pb2.DESCRIPTOR.services_by_name["PersonService"],
              auth_service_pb2.DESCRIPTOR.services_by_name["AuthService"])
}
TARGETS = {"person-spring": "PERSON_TARGET", "auth-node": "AUTH_TARGET"}
_END = object()


class Requests:
    """The request iterator grpcio pulls from on its own thread: the executor decides when
    each message goes out, and when the stream half-closes (or never does)."""

    def __init__(self):
        self._queue = queue.Queue()

    def send(self, message):
        self._queue.put(message)

    def close(self):
        self._queue.put(_END)

    def __iter__(self):
        return self

    def __next__(self):
        item = self._queue.get()
        if item is _END:
            raise StopIteration
        return item


class Executor:
    def __init__(self):
        self._channels = {}

    def channel(self, server):
        if server not in self._channels:
            variable = TARGETS.get(server)
            target = os.environ.get(variable or "", "")
            if not target:
                raise ValueError(f"unknown server {server}, or {variable} is not set")
            self._channels[server] = grpc.insecure_channel(target)
        return self._channels[server]

    def call(self, step):
        if step.protocol != "grpc":
            return executor_pb2.Outcome(failure=f"grpcio speaks grpc only, not {step.protocol}")
        service = SERVICES.get(step.service)
        method = service.methods_by_name.get(step.method) if service else None
        if method is None:
            return executor_pb2.Outcome(failure=f"the SDK has no method {step.service}/{step.method}")
        request_class = message_factory.GetMessageClass(method.input_type)
        response_class = message_factory.GetMessageClass(method.output_type)
        requests = [request_class.FromString(r) for r in step.requests]
        path = f"/{service.full_name}/{method.name}"
        shape = {(False, False): "unary_unary", (False, True): "unary_stream",
                 (True, False): "stream_unary", (True, True): "stream_stream"}[
                     (method.client_streaming, method.server_streaming)]
        multicallable = getattr(self.channel(step.server), shape)(
            path, request_serializer=request_class.SerializeToString, response_deserializer=response_class.FromString)
        metadata = tuple((key, getattr(step, key)) for key in ("authorization", "traceparent") if step.HasField(key))
        options = {"timeout": step.timeout_ms / 1000, "metadata": metadata}
        outcome = executor_pb2.Outcome()
        started = time.monotonic()
        try:
            if shape == "unary_unary":
                outcome.responses.append(multicallable(requests[0], **options).SerializeToString())
            elif shape == "unary_stream":
                for response in multicallable(requests[0], **options):
                    outcome.responses.append(response.SerializeToString())
            else:
                self._stream(step, multicallable, shape, requests, options, outcome)
        except grpc.RpcError as error:
            outcome.code = error.code().value[0]
            outcome.message = error.details() or ""
            for key, value in error.trailing_metadata() or ():
                if key == "grpc-status-details-bin":
                    outcome.status_details = value
        except grpc.FutureCancelledError:
            outcome.code = grpc.StatusCode.CANCELLED.value[0]
        outcome.elapsed_ms = round((time.monotonic() - started) * 1000)
        return outcome

    @staticmethod
    def _stream(step, multicallable, shape, requests, options, outcome):
        sent = Requests()
        # stream_unary's future and stream_stream's iterator are both the call (cancel()).
        call = multicallable.future(sent, **options) if shape == "stream_unary" else multicallable(sent, **options)
        try:
            for request in requests:
                sent.send(request)
                if step.exchange:
                    try:
                        outcome.responses.append(next(call).SerializeToString())
                    except StopIteration:
                        break
            if step.end == executor_pb2.Step.END_CANCEL:
                time.sleep(step.cancel_after_ms / 1000)
                call.cancel()
            elif step.end != executor_pb2.Step.END_OPEN:
                sent.close()
            if shape == "stream_unary":
                outcome.responses.append(call.result().SerializeToString())
            else:
                for response in call:
                    outcome.responses.append(response.SerializeToString())
        finally:
            # A stream left open (END_OPEN, a cancel) must free grpcio's thread that reads it.
            sent.close()

    def close(self):
        for channel in self._channels.values():
            channel.close()


def serve(stdin=sys.stdin.buffer, stdout=sys.stdout.buffer):
    """Reads length-prefixed Steps until stdin ends, answering each in turn."""
    executor = Executor()
    try:
        while True:
            prefix = stdin.read(4)
            if len(prefix) < 4:
                return
            (length,) = struct.unpack(">I", prefix)
            step = executor_pb2.Step.FromString(stdin.read(length))
            try:
                outcome = executor.call(step)
            except Exception as error:  # noqa: BLE001 - a crash is reported, never judged here
                traceback.print_exc()
                outcome = executor_pb2.Outcome(failure=f"crashed: {error!r}")
            data = outcome.SerializeToString()
            stdout.write(struct.pack(">I", len(data)) + data)
            stdout.flush()
    finally:
        executor.close()


