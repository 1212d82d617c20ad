"""Each chart lints, renders with its default values and every example values file, and what it
renders passes the Kubernetes schemas (offline, strict) and the charts' own rules."""

from __future__ import annotations

import pytest

from charts import (CHARTS, KUBERNETES_VERSIONS, Chart, RenderError, all_problems, by_kind,
                    docker_bytes, helm, kubernetes_bytes, memory_problems, policy_problems, render)

# Every way of rendering a chart the tests know: its defaults, each example file, and the
# options that change which objects and volumes it renders.
OPTIONS = {
    "no persistence": {"persistence.enabled": False},
    "existing claim": {"persistence.existingClaim": "kept-data"},
    "digest, no pre-stop sleep": {"image.digest": "sha256:" + "0" * 64, "preStopSleepSeconds": 0},
}


def renderings(chart: Chart):
    yield "defaults", [], {}
    for example in chart.examples():
        yield f"example {example.parent.name}", [example], {}
    for name, sets in OPTIONS.items():
        yield name, [], sets


CASES = [pytest.param(chart, files, sets, id=f"{chart.name}: {name}")
         for chart in CHARTS for name, files, sets in renderings(chart)]


def test_every_chart_has_an_example_for_the_shared_postgres():
    for chart in CHARTS:
        assert [e.parent.name for e in chart.examples()] == ["shared-postgres"], chart.name


@pytest.mark.parametrize("chart,files,sets", CASES)
def test_lints(chart, files, sets):
    args = ["lint", "--strict", str(chart.path)]
    for f in files:
        args += ["--values", str(f)]
    for key, value in sets.items():
        args += ["--set-string" if isinstance(value, str) else "--set", f"{key}={value}"]
    result = helm(*args, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("kube_version", KUBERNETES_VERSIONS)
@pytest.mark.parametrize("chart,files,sets", CASES)
def test_renders_valid_objects(chart, files, sets, kube_version):
    docs = render(chart.path, *files, sets=sets, kube_version=kube_version)
    assert all_problems(docs, chart) == []


def test_every_kind_is_rendered_by_some_values():
    """Default values run one replica on an embedded store; the shared-store example scales."""
    for chart in CHARTS:
        kinds = set()
        for _, files, sets in renderings(chart):
            kinds |= {d["kind"] for d in render(chart.path, *files, sets=sets)}
        assert kinds == {"Deployment", "Service", "PodDisruptionBudget", "HorizontalPodAutoscaler",
                         "PersistentVolumeClaim"}, chart.name


@pytest.mark.parametrize("chart", CHARTS, ids=lambda c: c.name)
def test_memory_limit_is_containers_env(chart):
    assert memory_problems(render(chart.path), chart) == []


def test_size_notations():
    assert docker_bytes("512m") == kubernetes_bytes("512Mi") == 512 * 2**20
    assert docker_bytes("1g") == kubernetes_bytes("1Gi") == kubernetes_bytes("1024Mi")
    assert kubernetes_bytes("1G") == 10**9 != docker_bytes("1g")


# A setting given as a plain number in a values file: YAML makes it a float, which helm would
# render as 4.194304e+06 — a value neither service can read.
LARGE_NUMBERS = [("auth-node", "AUTH_MAX_MESSAGE_BYTES"), ("person-spring", "STORE_GROUP_CHARS")]


@pytest.mark.parametrize("name,setting", LARGE_NUMBERS, ids=[n for n, _ in LARGE_NUMBERS])
def test_a_large_number_in_a_values_file_is_passed_as_written(tmp_path, name, setting):
    chart = next(c for c in CHARTS if c.name == name)
    values = tmp_path / "values.yaml"
    values.write_text(f"config:\n  {setting}: 4194304\n")
    (deployment,) = by_kind(render(chart.path, values), "Deployment")
    env = {e["name"]: e.get("value") for e in deployment["spec"]["template"]["spec"]["containers"][0]["env"]}
    assert env[setting] == "4194304"


# Values the charts refuse rather than run a deployment that splits or loses data.
REFUSED = [
    ("auth-node", {"replicaCount": 2}, "replicaCount must be 1"),
    ("auth-node", {"autoscaling.enabled": True}, "autoscaling off"),
    ("auth-node", {"database.kind": "postgres"}, "needs database.existingSecret"),
    ("auth-node", {"database.kind": "mysql"}, "value must be one of"),
    ("auth-node", {"config.AUTH_PORT": "1"}, "additional properties 'AUTH_PORT' not allowed"),
    ("auth-node", {"config.AUTH_TOKEN_TTL": "60"}, "additional properties 'AUTH_TOKEN_TTL' not allowed"),
    ("auth-node", {"extraEnv[0].name": "AUTH_METRICS_ENABLED", "extraEnv[0].value": "false"}, "set AUTH_METRICS_ENABLED under config:"),
    ("person-spring", {"replicaCount": 3}, "replicaCount must be 1"),
    ("person-spring", {"database.kind": "postgres", "database.existingSecret": "db"}, "needs database.url"),
    ("person-spring", {"database.kind": "postgres", "database.url": "jdbc:postgresql://db/person"}, "needs database.existingSecret"),
    ("person-spring", {"config.DB_PASSWORD": "secret"}, "additional properties 'DB_PASSWORD' not allowed"),
    ("person-spring", {"ports.grpc": 70000}, "maximum"),
]


@pytest.mark.parametrize("name,sets,message", REFUSED, ids=[f"{n}: {s}" for n, s, _ in REFUSED])
def test_refuses(name, sets, message):
    chart = next(c for c in CHARTS if c.name == name)
    with pytest.raises(RenderError, match=message):
        render(chart.path, sets=sets)


def test_secrets_are_references():
    """With a shared PostgreSQL every credential is a secretKeyRef: no password in any value."""
    for chart in CHARTS:
        for example in chart.examples():
            deployment = by_kind(render(chart.path, example), "Deployment")[0]
            env = {e["name"]: e for e in deployment["spec"]["template"]["spec"]["containers"][0]["env"]}
            for name in chart.secret_env:
                assert "secretKeyRef" in env[name]["valueFrom"], (chart.name, name)
                assert "value" not in env[name]


def test_embedded_stores_keep_their_data_on_a_claim():
    for chart in CHARTS:
        docs = render(chart.path)
        claims = by_kind(docs, "PersistentVolumeClaim")
        pod = by_kind(docs, "Deployment")[0]["spec"]["template"]["spec"]
        data = next(v for v in pod["volumes"] if v["name"] == "data")
        assert data["persistentVolumeClaim"]["claimName"] == claims[0]["metadata"]["name"]
        assert claims[0]["metadata"]["annotations"]["helm.sh/resource-policy"] == "keep"
        assert by_kind(docs, "Deployment")[0]["spec"]["strategy"]["type"] == "Recreate"


def test_termination_outlasts_the_services_own_grace():
    """The kubelet kills a pod at terminationGracePeriodSeconds: the pre-stop sleep and the
    service's own drain must both fit before it."""
    for chart in CHARTS:
        values = chart.values()
        for sets in ({}, {"shutdownGraceSeconds": 120, "preStopSleepSeconds": 10}):
            pod = by_kind(render(chart.path, sets=sets), "Deployment")[0]["spec"]["template"]["spec"]
            grace = sets.get("shutdownGraceSeconds", values["shutdownGraceSeconds"])
            sleep = sets.get("preStopSleepSeconds", values["preStopSleepSeconds"])
            assert pod["terminationGracePeriodSeconds"] > grace + sleep


@pytest.mark.parametrize("kube_version", ["1.29.0"])
def test_refuses_a_kubernetes_too_old_for_its_probes(kube_version):
    for chart in CHARTS:
        with pytest.raises(RenderError, match="kubeVersion"):
            render(chart.path, kube_version=kube_version)


@pytest.mark.parametrize("value", ["false", False, "true", None])
def test_auth_node_liveness_asks_the_metrics_port_while_it_is_open(value):
    # The gRPC port refuses connections past AUTH_MAX_CONNECTIONS, the probe's too: liveness
    # there would restart a replica that is only full. The metrics port has no such limit.
    chart = next(c for c in CHARTS if c.name == "auth-node")
    sets = {} if value is None else {"config.AUTH_METRICS_ENABLED": value}
    docs = render(chart.path, sets=sets)
    assert not policy_problems(docs, chart)
    [deployment] = by_kind(docs, "Deployment")
    liveness = deployment["spec"]["template"]["spec"]["containers"][0]["livenessProbe"]
    if str(value).lower() == "false":
        assert liveness["grpc"]["port"] == 50051 and "httpGet" not in liveness
    else:
        assert liveness["httpGet"] == {"path": "/healthz", "port": 9464} and "grpc" not in liveness
