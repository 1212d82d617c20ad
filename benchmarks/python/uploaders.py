"""uploaders.py — many RegisterPeople uploaders at once with the Python SDK: CLIENTS clients,
each with its own channel, each streaming PEOPLE people spread over SECONDS seconds (a person,
then a pause), all started together. The trial that once got 4 OK and 60 RESOURCE_EXHAUSTED from
64 clients. Every client's people carry a name unique to the run; at the end ListPeople counts
how many of them are stored. The token comes in BENCH_TOKEN. Prints one JSON line: ok, failed,
stored (people found), expected (people the OK streams were answered for), first_error.

usage: uploaders.py TARGET CLIENTS PEOPLE SECONDS
"""
import json
import os
import sys
import threading
import time
import uuid

import grpc
from acme.person.v1 import person_pb2
from acme.person.v1 import person_service_pb2 as ps
from acme.person.v1 import person_service_pb2_grpc as ps_grpc


def upload(target, metadata, name, people, seconds, outcome, start):
    """One client: its own channel, one stream, one person every seconds / people."""
    with grpc.insecure_channel(target) as channel:
        stub = ps_grpc.PersonServiceStub(channel)
        pause = seconds / people

        def stream():
            start.wait()
            for i in range(people):
                request_id = str(uuid.uuid4()) if i == 0 else ""
                yield ps.RegisterPeopleRequest(request_id=request_id,
                                               person=person_pb2.Person(name=name, age=30, hobbies=["uploading"]))
                time.sleep(pause)

        try:
            answer = stub.RegisterPeople(stream(), metadata=metadata, timeout=120)
            outcome.append(("ok", answer.count))
        except grpc.RpcError as e:
            outcome.append(("failed", f"{e.code().name}: {e.details()}"))


def stored(target, metadata, prefix):
    with grpc.insecure_channel(target) as channel:
        stub = ps_grpc.PersonServiceStub(channel)
        return sum(1 for _ in stub.ListPeople(ps.ListPeopleRequest(name_contains=prefix, limit=10_000),
                                              metadata=metadata, timeout=60))


def main():
    target, clients, people, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    metadata = (("authorization", f"Bearer {os.environ['BENCH_TOKEN']}"),)
    run = uuid.uuid4().hex[:8]
    outcome = []
    start = threading.Event()
    threads = [threading.Thread(target=upload, args=(target, metadata, f"uploader-{run}-{c}", people, seconds,
                                                     outcome, start))
               for c in range(clients)]
    for t in threads:
        t.start()
    start.set()
    for t in threads:
        t.join()
    ok = [count for kind, count in outcome if kind == "ok"]
    errors = [what for kind, what in outcome if kind == "failed"]
    print(json.dumps({"ok": len(ok), "failed": len(errors), "expected": sum(ok),
                      "stored": stored(target, metadata, f"uploader-{run}-"),
                      "first_error": errors[0] if errors else None}))


if __name__ == "__main__":
    main()
