"""The checks can fail: each case breaks a copy of a chart the way an edit could, and the
validation must name what is wrong. A check that passes a broken chart is no check."""

from __future__ import annotations

import shutil

import pytest

from charts import CHARTS, all_problems, memory_problems, render



def probe_block(probe: str) -> str:
    """A probe's whole block in deployment.yaml."""
    return "".join(f"{line}\n" for line in (
        f"          {probe}Probe:",
        "            grpc:",
        "              port: {{ .Values.ports.grpc }}",
        f"              service: {{{{ .Values.probes.{probe}.service | quote }}}}",
        f"            periodSeconds: {{{{ .Values.probes.{probe}.periodSeconds }}}}",
        f"            timeoutSeconds: {{{{ .Values.probes.{probe}.timeoutSeconds }}}}",
        f"            failureThreshold: {{{{ .Values.probes.{probe}.failureThreshold }}}}"))


# chart, what is broken, the file and text edited (or values set), what the verdict must say.
BROKEN = [
    ("auth-node", "a string in spec.replicas", "templates/deployment.yaml",
     "replicas: {{ .Values.replicaCount }}", "replicas: {{ .Values.replicaCount | quote }}", {},
     "spec.replicas: '1' is not of type 'integer'"),
    ("person-spring", "a string in spec.replicas", "templates/deployment.yaml",
     "replicas: {{ .Values.replicaCount }}", "replicas: {{ .Values.replicaCount | quote }}", {},
     "spec.replicas: '1' is not of type 'integer'"),
    ("auth-node", "no readiness probe", "templates/deployment.yaml", probe_block("readiness"), "", {},
     "no readinessProbe"),
    ("person-spring", "no liveness probe", "templates/deployment.yaml", probe_block("liveness"), "", {},
     "no livenessProbe"),
    ("person-spring", "a misspelt field (strict schemas)", "templates/deployment.yaml",
     "          readinessProbe:\n", "          readinesProbe:\n", {},
     "Additional properties are not allowed ('readinesProbe' was unexpected)"),
    ("auth-node", "a probe on the REST port", "templates/deployment.yaml",
     "          readinessProbe:\n            grpc:\n              port: {{ .Values.ports.grpc }}",
     "          readinessProbe:\n            grpc:\n              port: {{ .Values.ports.rest }}", {},
     "readinessProbe asks port 8081, not the grpc port 50051"),
    ("auth-node", "liveness on the REST port, which a full connection limit can refuse", "templates/deployment.yaml",
     "              path: /healthz\n              port: {{ .Values.ports.metrics }}",
     "              path: /healthz\n              port: {{ .Values.ports.rest }}", {},
     "livenessProbe asks {'path': '/healthz', 'port': 8081}, not GET /healthz on the metrics port 9464"),
    ("auth-node", "an HTTP probe", "templates/deployment.yaml",
     "          startupProbe:\n            grpc:\n              port: {{ .Values.ports.grpc }}\n              service: {{ .Values.probes.liveness.service | quote }}",
     "          startupProbe:\n            httpGet:\n              port: {{ .Values.ports.rest }}\n              path: /healthz", {},
     "startupProbe is not a gRPC probe"),
    ("person-spring", "no memory limit", "values.yaml",
     "  limits:\n    cpu: \"2\"\n    memory: 1Gi", "  limits:\n    cpu: \"2\"", {},
     "no resources.limits.memory"),
    ("person-spring", "a writable root file system", None, None, None,
     {"securityContext.readOnlyRootFilesystem": False}, "the root file system is writable"),
    ("auth-node", "root", None, None, None,
     {"podSecurityContext.runAsUser": 0}, "runAsUser is root or unset"),
    ("auth-node", "a password as a value", None, None, None,
     {"extraEnv[0].name": "AUTH_ADMIN_PASSWORD", "extraEnv[0].value": "a-password-in-git"},
     "AUTH_ADMIN_PASSWORD is not taken from a Secret"),
    ("person-spring", "a Service that selects nothing", "templates/service.yaml",
     '{{- include "person-spring.selectorLabels" . | nindent 4 }}', "app: person", {},
     "selects no pod of the Deployment"),
    ("person-spring", "no headless Service", "templates/service-headless.yaml",
     "clusterIP: None", "type: ClusterIP", {},
     "no headless Service"),
    ("auth-node", "a host path", "templates/deployment.yaml",
     "          emptyDir: {}", "          hostPath:\n            path: /var/auth", {"persistence.enabled": False},
     "neither an emptyDir nor a PersistentVolumeClaim"),
]


@pytest.mark.parametrize("name,what,file,old,new,sets,verdict", BROKEN, ids=[f"{b[0]}: {b[1]}" for b in BROKEN])
def test_validation_names_the_fault(tmp_path, name, what, file, old, new, sets, verdict):
    chart = next(c for c in CHARTS if c.name == name)
    broken = tmp_path / name
    shutil.copytree(chart.path, broken)
    if file:
        path = broken / file
        text = path.read_text()
        assert text.count(old) == 1, f"the case no longer matches {file}: fix the case"
        path.write_text(text.replace(old, new))
    problems = all_problems(render(broken, sets=sets), chart)
    assert any(verdict in p for p in problems), problems


@pytest.mark.parametrize("chart", CHARTS, ids=lambda c: c.name)
def test_memory_check_catches_a_limit_that_drifted(tmp_path, chart):
    broken = tmp_path / chart.name
    shutil.copytree(chart.path, broken)
    values = broken / "values.yaml"
    limit = chart.values()["resources"]["limits"]["memory"]
    values.write_text(values.read_text().replace(f"    memory: {limit}", "    memory: 768Mi"))
    problems = memory_problems(render(broken), chart)
    assert len(problems) == 2 and "containers.env" in problems[0], problems
