"""What the chart tests know about the charts: where each one is, what it renders, and the rules
every rendering must keep beyond the Kubernetes schemas."""

from __future__ import annotations

import json
import pathlib
import re
import subprocess
from dataclasses import dataclass

import kubernetes_validate
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
HELM_DIR = ROOT / "deploy/helm"
EXAMPLES = ROOT / "deploy/examples"
CONTAINERS_ENV = ROOT / "compatibility-tests/containers.env"

# The Kubernetes versions every rendering is validated against: the oldest the charts declare
# (Chart.yaml kubeVersion) and the newest kubernetes-validate carries.
KUBERNETES_VERSIONS = ("1.30.0", "1.37.0")


@dataclass(frozen=True)
class Chart:
    name: str
    # containers.env's name for the container's memory limit.
    memory_key: str
    # The settings whose values must never be in the chart: they come from a Secret.
    secret_env: tuple[str, ...]

    @property
    def path(self) -> pathlib.Path:
        return HELM_DIR / self.name

    def values(self) -> dict:
        return yaml.safe_load((self.path / "values.yaml").read_text())

    def examples(self) -> list[pathlib.Path]:
        return sorted(EXAMPLES.glob(f"*/{self.name}.yaml"))


CHARTS = (
    Chart("auth-node", "AUTH_NODE_MEMORY", ("AUTH_ADMIN_PASSWORD", "AUTH_DATABASE_URL")),
    Chart("person-spring", "PERSON_SPRING_MEMORY", ("DB_PASSWORD",)),
)


class RenderError(Exception):
    pass


def helm(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run(["helm", *args], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise RenderError(f"helm {' '.join(args)}: {result.stderr.strip() or result.stdout.strip()}")
    return result


def render(chart_dir: pathlib.Path, *values_files: pathlib.Path, sets: dict[str, str] | None = None,
           release: str | None = None, kube_version: str | None = None) -> list[dict]:
    """The objects `helm template` renders; RenderError with helm's message when it refuses."""
    args = ["template", release or chart_dir.name, str(chart_dir)]
    for f in values_files:
        args += ["--values", str(f)]
    for key, value in (sets or {}).items():
        args += ["--set-string" if isinstance(value, str) else "--set", f"{key}={value}"]
    if kube_version:
        args += ["--kube-version", kube_version]
    return [doc for doc in yaml.safe_load_all(helm(*args).stdout) if doc]


def schema_problems(docs: list[dict], version: str) -> list[str]:
    """kubernetes-validate's strict verdict (unknown fields refused) on each object. A kind it has
    no schema for is a problem too: the command-line tool only warns and passes it."""
    problems = []
    for doc in docs:
        where = f"{doc.get('kind')}/{doc.get('metadata', {}).get('name')}"
        try:
            kubernetes_validate.validate(doc, version, strict=True)
        except kubernetes_validate.ValidationError as e:
            path = ".".join(str(p) for p in e.path)
            problems.append(f"{where} (Kubernetes {e.version}): {path}: {e.message}")
        except kubernetes_validate.SchemaNotFoundError as e:
            problems.append(f"{where}: {e.message}")
    return problems


def by_kind(docs: list[dict], kind: str) -> list[dict]:
    return [d for d in docs if d["kind"] == kind]


def policy_problems(docs: list[dict], chart: Chart) -> list[str]:
    """What the schemas allow but these charts promise: gRPC probes (or liveness on an uncapped
    metrics port's /healthz), resources, a non-root
    read-only container, secrets only by reference, Services and budgets that find the pods."""
    problems = []
    deployments = by_kind(docs, "Deployment")
    if len(deployments) != 1:
        return [f"expected one Deployment, got {len(deployments)}"]
    deployment = deployments[0]
    pod = deployment["spec"]["template"]["spec"]
    pod_labels = deployment["spec"]["template"]["metadata"]["labels"]
    if not _matches(deployment["spec"]["selector"]["matchLabels"], pod_labels):
        problems.append("the Deployment's selector does not match its pod labels")
    pod_security = pod.get("securityContext", {})
    if pod_security.get("runAsNonRoot") is not True:
        problems.append("pod securityContext.runAsNonRoot is not true")
    if pod_security.get("runAsUser", 0) == 0:
        problems.append("pod securityContext.runAsUser is root or unset")
    if pod.get("automountServiceAccountToken") is not False:
        problems.append("the pod mounts a service account token it never uses")
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    for name, volume in volumes.items():
        if not ({"emptyDir", "persistentVolumeClaim"} & volume.keys()):
            problems.append(f"volume {name} is neither an emptyDir nor a PersistentVolumeClaim")
    for container in pod["containers"]:
        where = f"container {container['name']}"
        ports = {p["name"]: p["containerPort"] for p in container.get("ports", [])}
        for probe_name in ("startupProbe", "readinessProbe", "livenessProbe"):
            probe = container.get(probe_name)
            if probe is None:
                problems.append(f"{where}: no {probe_name}")
            elif probe_name == "livenessProbe" and "httpGet" in probe:
                # auth-node's liveness: its metrics port, which no connection limit can fill —
                # when the service opens it.
                env = {e["name"]: e.get("value") for e in container.get("env", [])}
                if env.get("AUTH_METRICS_ENABLED") == "false":
                    problems.append(f"{where}: livenessProbe asks the metrics port, which AUTH_METRICS_ENABLED=false closes")
                elif (probe["httpGet"].get("path"), probe["httpGet"].get("port")) != ("/healthz", ports.get("metrics")):
                    problems.append(f"{where}: livenessProbe asks {probe['httpGet']}, not GET /healthz on the metrics port {ports.get('metrics')}")
            elif "grpc" not in probe:
                problems.append(f"{where}: {probe_name} is not a gRPC probe")
            elif probe["grpc"]["port"] != ports.get("grpc"):
                problems.append(f"{where}: {probe_name} asks port {probe['grpc']['port']}, not the grpc port {ports.get('grpc')}")
        resources = container.get("resources", {})
        for part in ("requests", "limits"):
            for resource in ("cpu", "memory"):
                if resource not in resources.get(part, {}):
                    problems.append(f"{where}: no resources.{part}.{resource}")
        security = container.get("securityContext", {})
        if security.get("readOnlyRootFilesystem") is not True:
            problems.append(f"{where}: the root file system is writable")
        if security.get("allowPrivilegeEscalation") is not False:
            problems.append(f"{where}: privilege escalation is allowed")
        if "ALL" not in security.get("capabilities", {}).get("drop", []):
            problems.append(f"{where}: capabilities are not all dropped")
        if security.get("runAsUser", pod_security.get("runAsUser", 0)) == 0:
            problems.append(f"{where}: runs as root")
        for mount in container.get("volumeMounts", []):
            if mount["name"] not in volumes:
                problems.append(f"{where}: mounts {mount['name']}, which is no volume of the pod")
        for env in container.get("env", []):
            if env["name"] in chart.secret_env and "secretKeyRef" not in env.get("valueFrom", {}):
                problems.append(f"{where}: {env['name']} is not taken from a Secret")
    for secret in by_kind(docs, "Secret"):
        problems.append(f"the chart renders Secret/{secret['metadata']['name']}: secrets are referenced, never carried")
    services = by_kind(docs, "Service")
    if not any(s["spec"].get("clusterIP") == "None" for s in services):
        problems.append("no headless Service for clients that balance per call")
    for service in services:
        if not _matches(service["spec"]["selector"], pod_labels):
            problems.append(f"Service/{service['metadata']['name']} selects no pod of the Deployment")
        for port in service["spec"]["ports"]:
            if port["targetPort"] not in ports:
                problems.append(f"Service/{service['metadata']['name']} targets port {port['targetPort']}, which the pod does not name")
    for budget in by_kind(docs, "PodDisruptionBudget"):
        if not _matches(budget["spec"]["selector"]["matchLabels"], pod_labels):
            problems.append("the PodDisruptionBudget selects no pod of the Deployment")
    for hpa in by_kind(docs, "HorizontalPodAutoscaler"):
        if hpa["spec"]["scaleTargetRef"]["name"] != deployment["metadata"]["name"]:
            problems.append("the HorizontalPodAutoscaler scales another Deployment")
        if "replicas" in deployment["spec"]:
            problems.append("the Deployment sets replicas although an HorizontalPodAutoscaler owns them")
    return problems


def _matches(selector: dict, labels: dict) -> bool:
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def all_problems(docs: list[dict], chart: Chart) -> list[str]:
    problems = policy_problems(docs, chart)
    for version in KUBERNETES_VERSIONS:
        problems += schema_problems(docs, version)
    return problems


# Sizes: docker's notation (containers.env: 512m, 1g — powers of 1024) and Kubernetes quantities.
DOCKER_UNITS = {"": 1, "b": 1, "k": 1024, "m": 1024**2, "g": 1024**3}
KUBERNETES_UNITS = {"": 1, "Ki": 1024, "Mi": 1024**2, "Gi": 1024**3, "Ti": 1024**4,
                    "k": 1000, "M": 1000**2, "G": 1000**3, "T": 1000**4}


def docker_bytes(size: str) -> int:
    match = re.fullmatch(r"(\d+)([bkmg]?)", size.strip().lower())
    if not match:
        raise ValueError(f"not a docker size: {size!r}")
    return int(match[1]) * DOCKER_UNITS[match[2]]


def kubernetes_bytes(quantity: str | int) -> int:
    match = re.fullmatch(r"(\d+)([KMGT]i?|k)?", str(quantity).strip())
    if not match:
        raise ValueError(f"not a Kubernetes memory quantity: {quantity!r}")
    return int(match[1]) * KUBERNETES_UNITS[match[2] or ""]


def memory_problems(docs: list[dict], chart: Chart) -> list[str]:
    """compatibility-tests/containers.env is the one definition of each service's memory: the
    chart's default limit and request must be that size."""
    expected = containers_env()[chart.memory_key]
    resources = by_kind(docs, "Deployment")[0]["spec"]["template"]["spec"]["containers"][0]["resources"]
    return [f"resources.{part}.memory is {resources[part]['memory']}, containers.env's {chart.memory_key} is {expected}"
            for part in ("limits", "requests")
            if kubernetes_bytes(resources[part]["memory"]) != docker_bytes(expected)]


def containers_env() -> dict[str, str]:
    entries = {}
    for line in CONTAINERS_ENV.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            entries[key] = value
    return entries


def values_schema(chart: Chart) -> dict:
    return json.loads((chart.path / "values.schema.json").read_text())
