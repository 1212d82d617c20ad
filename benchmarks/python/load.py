"""load.py — scenario 5 with the Python SDK: CLIENTS threads at once share out REQUESTS
GetPerson calls for one stored person, over gRPC (one channel, every call multiplexed on it,
as the SDK's users make one) or the REST twin (a kept-alive HTTP/1.1 connection per thread).
The token comes in BENCH_TOKEN. Prints one JSON line: p50, p99 and max latency in ms, and
throughput in requests/s, after a warm-up of 5 % of the calls.

usage: load.py grpc|rest TARGET PERSON_ID REQUESTS CLIENTS
"""
import http.client
import json
import os
import sys
import threading
import time

import grpc
from acme.person.v1 import person_service_pb2 as ps
from acme.person.v1 import person_service_pb2_grpc as ps_grpc


def grpc_caller(target, person_id, token):
    channel = grpc.insecure_channel(target, options=[("grpc.max_receive_message_length", 16 << 20)])
    stub = ps_grpc.PersonServiceStub(channel)
    request = ps.GetPersonRequest(id=person_id)
    metadata = (("authorization", f"Bearer {token}"),)

    def per_thread():
        return lambda: stub.GetPerson(request, metadata=metadata, timeout=30)

    return per_thread


def rest_caller(target, person_id, token):
    host, port = target.rsplit(":", 1)
    headers = {"authorization": f"Bearer {token}"}

    def per_thread():
        connection = http.client.HTTPConnection(host, int(port), timeout=30)

        def call():
            connection.request("GET", f"/api/people/{person_id}", headers=headers)
            response = connection.getresponse()
            body = response.read()
            if response.status != 200:
                raise RuntimeError(f"HTTP {response.status}: {body[:200]!r}")
            json.loads(body)  # a REST client reads the person, as the gRPC stub parses it

        return call

    return per_thread


def run(per_thread, requests, clients):
    left = [requests]
    lock = threading.Lock()
    latencies = []
    errors = []

    def client():
        call = per_thread()
        mine = []
        while True:
            with lock:
                if left[0] <= 0:
                    break
                left[0] -= 1
            start = time.perf_counter_ns()
            try:
                call()
            except Exception as e:  # recorded, and the run fails below
                errors.append(repr(e))
                return
            mine.append(time.perf_counter_ns() - start)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - start
    if errors:
        raise SystemExit(f"{len(errors)} calls failed, first: {errors[0]}")
    return sorted(latencies), seconds


def main():
    protocol, target, person_id, requests, clients = sys.argv[1:6]
    requests, clients = int(requests), int(clients)
    token = os.environ["BENCH_TOKEN"]
    per_thread = (grpc_caller if protocol == "grpc" else rest_caller)(target, person_id, token)
    run(per_thread, max(clients, requests // 20), clients)  # warm-up
    latencies, seconds = run(per_thread, requests, clients)
    rank = lambda p: latencies[min(len(latencies) - 1, max(0, -(-len(latencies) * p // 100) - 1))] / 1e6
    print(json.dumps({"p50": rank(50), "p99": rank(99), "max": latencies[-1] / 1e6, "throughput": requests / seconds}))


if __name__ == "__main__":
    main()
