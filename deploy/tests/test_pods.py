"""The rendered pods run: each chart's Deployment started in Docker with exactly its security
context, environment and volumes (pods.py), on this checkout's images. Both serve through their
probes, person-spring reaches auth-node by the name the charts give it, a person is stored, and
each stops gracefully within its termination grace period. Each writable mount is needed
(without it the service does not start: the root really is read-only), and person-spring's
maximum connection age really sends GOAWAY."""

from __future__ import annotations

import uuid

import pytest

from charts import CHARTS, by_kind, render
from pods import Pod, docker, grpcurl, image_values, seconds_until_goaway

ADMIN_PASSWORD = "charts-admin-" + uuid.uuid4().hex[:12]
SECRETS = {("auth-node-admin", "password"): ADMIN_PASSWORD}


def deployment(chart_name: str, **sets) -> dict:
    chart = next(c for c in CHARTS if c.name == chart_name)
    # The release is named as the chart, so its Service is what person-spring's default
    # AUTH_ADDRESS (the image's auth-node:50051) names.
    return by_kind(render(chart.path, sets={**image_values(chart_name), **sets}, release=chart_name), "Deployment")[0]


@pytest.fixture
def network():
    name = f"charts-test-{uuid.uuid4().hex[:8]}"
    docker("network", "create", name)
    pods: list[Pod] = []
    yield name, pods
    for pod in pods:
        pod.remove()
    docker("network", "rm", name, check=False)


def start(network, chart_name: str, without_mounts: tuple[str, ...] = (), **sets) -> Pod:
    name, pods = network
    pod = Pod(deployment(chart_name, **sets), network=name, alias=chart_name, secrets=SECRETS,
              without_mounts=without_mounts)
    pods.append(pod)
    return pod.start()


def test_both_serve_store_and_stop_gracefully(network):
    auth = start(network, "auth-node")
    person = start(network, "person-spring")
    for pod in (auth, person):
        assert pod.wait_started(), pod.logs()[-3000:]
        assert (pod.probe("readinessProbe"), pod.probe("livenessProbe")) == ("SERVING", "SERVING")

    # The admin was created from the Secret (and written to the data volume, as the key was).
    token = grpcurl(auth.port("grpc"), "acme.auth.v1.AuthService/Login",
                    {"username": "admin", "password": ADMIN_PASSWORD})["token"]
    # person-spring checks the token at auth-node and writes H2 in its data volume.
    request = {"request_id": str(uuid.uuid4()),
               "person": {"name": "Grace Hopper", "age": 85, "address": {"city": "Arlington", "zip_code": "22201"}}}
    stored = grpcurl(person.port("grpc"), "acme.person.v1.PersonService/RegisterPerson", request, token)["person"]
    read = grpcurl(person.port("grpc"), "acme.person.v1.PersonService/GetPerson", {"id": stored["id"]}, token)
    assert read["person"]["name"] == "Grace Hopper"

    # Five minutes by default: a connection that is seconds old is left alone.
    assert seconds_until_goaway(person.port("grpc"), within=3) is None

    assert person.stop() in (0, 143), person.logs()[-3000:]
    assert "Completed gRPC server shutdown" in person.logs()
    assert auth.stop() == 0, auth.logs()[-3000:]


@pytest.mark.parametrize("chart_name,mount,failure", [
    ("auth-node", "/data", "unable to open database file"),
    ("person-spring", "/data", "/data/person.mv.db: Read-only file system"),
    ("person-spring", "/tmp", "/tmp/tomcat.8080."),
])
def test_each_writable_mount_is_needed(network, chart_name, mount, failure):
    """Without the mount the path is part of the read-only root, and the service cannot start."""
    pod = start(network, chart_name, without_mounts=(mount,))
    assert not pod.wait_started(), f"{chart_name} started without a writable {mount}"
    assert failure in pod.logs()


def test_person_spring_sends_goaway_at_its_maximum_connection_age(network):
    person = start(network, "person-spring", **{"grpc.maxConnectionAge": "2s", "grpc.connectionAgeGrace": "1s"})
    assert person.wait_started(), person.logs()[-3000:]
    seconds = seconds_until_goaway(person.port("grpc"), within=10)
    # grpc-java takes up to 10 % off the age (jitter); how late it comes on a busy machine is
    # not the point — with the default age none comes for minutes (the test above).
    assert seconds is not None and seconds >= 2 * 0.9, seconds
