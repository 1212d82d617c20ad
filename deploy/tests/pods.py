"""A rendered pod run in Docker as the kubelet would run it, as far as Docker can: the image,
environment (Secrets resolved from the test's own), user and groups, read-only root, dropped
capabilities, memory and CPU limits, and each emptyDir or claim as a fresh tmpfs the pod's user
can write, as the kubelet makes it (world-writable emptyDirs, fsGroup-writable claims). Docker
gives a tmpfs over a folder of the image that folder's mode (0755 here), so the tmpfs is owned
by runAsUser and group fsGroup instead. Kubernetes ignores an image's VOLUME declarations, which
Docker would fill with writable anonymous volumes: each one the pod does not mount is an empty
read-only folder here, as it is in the pod (a folder of the read-only root). Probes are asked
the way the kubelet asks them: grpc.health.v1.Health/Check on the probe's port, for the probe's
service."""

from __future__ import annotations

import json
import os
import socket
import struct
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
import uuid

from charts import kubernetes_bytes


def docker(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run(["docker", *args], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise RuntimeError(f"docker {' '.join(args[:2])}…: {result.stderr.strip()}")
    return result


class Pod:
    def __init__(self, deployment: dict, *, network: str, alias: str, secrets: dict[tuple[str, str], str],
                 without_mounts: tuple[str, ...] = ()):
        self.spec = deployment["spec"]["template"]["spec"]
        self.container = self.spec["containers"][0]
        self.name = f"charts-test-{alias}-{uuid.uuid4().hex[:8]}"
        self.network, self.alias, self.secrets = network, alias, secrets
        self.without_mounts = without_mounts
        self.ports: dict[int, str] = {}
        # Open to everyone, so that only its being read-only stops a write.
        self.empty_dir = tempfile.mkdtemp(prefix="charts-test-empty-")
        os.chmod(self.empty_dir, 0o777)

    def docker_args(self) -> list[str]:
        pod_security = self.spec.get("securityContext", {})
        security = {**pod_security, **self.container.get("securityContext", {})}
        args = ["run", "-d", "--pull", "never", "--name", self.name,
                "--network", self.network, "--network-alias", self.alias,
                "--user", f"{security['runAsUser']}:{security['runAsGroup']}"]
        if "fsGroup" in pod_security:
            args += ["--group-add", str(pod_security["fsGroup"])]
        if security.get("readOnlyRootFilesystem"):
            args.append("--read-only")
        for capability in security.get("capabilities", {}).get("drop", []):
            args += ["--cap-drop", capability]
        if security.get("allowPrivilegeEscalation") is False:
            args += ["--security-opt", "no-new-privileges"]
        limits = self.container["resources"]["limits"]
        args += ["--memory", str(kubernetes_bytes(limits["memory"])), "--cpus", cpus(limits["cpu"])]
        for env in self.container.get("env", []):
            if "value" in env:
                args += ["-e", f"{env['name']}={env['value']}"]
                continue
            ref = env["valueFrom"]["secretKeyRef"]
            value = self.secrets.get((ref["name"], ref["key"]))
            if value is None and not ref.get("optional"):
                raise RuntimeError(f"the pod needs Secret {ref['name']} key {ref['key']}, which the test did not give")
            if value is not None:
                args += ["-e", f"{env['name']}={value}"]
        volumes = {v["name"]: v for v in self.spec.get("volumes", [])}
        owner = f"uid={security['runAsUser']},gid={pod_security.get('fsGroup', security['runAsGroup'])}"
        for mount in self.container.get("volumeMounts", []):
            if mount["mountPath"] in self.without_mounts:
                continue
            volume = volumes[mount["name"]]
            assert {"emptyDir", "persistentVolumeClaim"} & volume.keys(), volume
            options = f"rw,exec,nosuid,nodev,{owner}"
            size = volume.get("emptyDir", {}).get("sizeLimit")
            if size:
                options += f",size={kubernetes_bytes(size)}"
            args += ["--tmpfs", f"{mount['mountPath']}:{options}"]
        mounted = {m["mountPath"] for m in self.container.get("volumeMounts", [])} - set(self.without_mounts)
        image_volumes = json.loads(docker("image", "inspect", "-f", "{{json .Config.Volumes}}",
                                          self.container["image"]).stdout) or {}
        for path in sorted(set(image_volumes) - mounted):
            args += ["--mount", f"type=bind,source={self.empty_dir},destination={path},readonly"]
        for port in self.container["ports"]:
            args += ["-p", f"127.0.0.1::{port['containerPort']}"]
        return args + [self.container["image"]]

    def start(self) -> "Pod":
        docker(*self.docker_args())
        for port in self.container["ports"]:
            self.ports[port["containerPort"]] = docker("port", self.name, f"{port['containerPort']}/tcp").stdout.split()[0]
        return self

    def port(self, name: str) -> str:
        """The host address of the container port with this name."""
        number = next(p["containerPort"] for p in self.container["ports"] if p["name"] == name)
        return self.ports[number]

    def running(self) -> bool:
        return docker("inspect", "-f", "{{.State.Running}}", self.name).stdout.strip() == "true"

    def probe(self, kind: str) -> str:
        """What the probe gets, as the kubelet would ask it: grpc.health.v1.Health/Check's status,
        or for an HTTP probe SERVING when the GET is answered 200-399 (the kubelet's success)."""
        if "httpGet" in self.container[kind]:
            get = self.container[kind]["httpGet"]
            try:
                with urllib.request.urlopen(f"http://{self.ports[get['port']]}{get['path']}",
                                            timeout=self.container[kind]["timeoutSeconds"]) as answer:
                    return "SERVING" if 200 <= answer.status < 400 else f"HTTP {answer.status}"
            except (OSError, urllib.error.URLError) as err:
                return f"no answer: {err}"
        grpc = self.container[kind]["grpc"]
        result = subprocess.run(
            ["grpcurl", "-plaintext", "-max-time", str(self.container[kind]["timeoutSeconds"]),
             "-d", json.dumps({"service": grpc.get("service", "")}), self.ports[grpc["port"]],
             "grpc.health.v1.Health/Check"], capture_output=True, text=True)
        if result.returncode != 0:
            return result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "no answer"
        return json.loads(result.stdout)["status"]

    def wait_started(self, timeout: float = 300) -> bool:
        """True once the startup probe succeeds, False if the container exits or `timeout` passes.
        The timeout is this machine's, not the probe's budget: here the pod shares two cores with
        whatever else runs, where a cluster would reserve its CPU request."""
        startup = self.container["startupProbe"]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.running():
                return False
            if self.probe("startupProbe") == "SERVING":
                return True
            time.sleep(startup["periodSeconds"])
        return False

    def logs(self) -> str:
        result = docker("logs", self.name, check=False)
        return result.stdout + result.stderr

    def stop(self) -> int:
        """SIGTERM, then SIGKILL after the pod's termination grace period, as the kubelet does
        (after the pre-stop sleep, which only matters for endpoints that are not here)."""
        docker("stop", "-t", str(self.spec["terminationGracePeriodSeconds"]), self.name)
        return int(docker("inspect", "-f", "{{.State.ExitCode}}", self.name).stdout)

    def remove(self) -> None:
        docker("rm", "-f", self.name, check=False)
        os.rmdir(self.empty_dir)


def cpus(quantity: str | int) -> str:
    """A Kubernetes CPU quantity (2, 0.5, 500m) in docker's --cpus notation."""
    text = str(quantity)
    return str(int(text[:-1]) / 1000) if text.endswith("m") else text


def grpcurl(address: str, method: str, request: dict, token: str | None = None) -> dict:
    args = ["grpcurl", "-plaintext", "-max-time", "20", "-d", json.dumps(request)]
    if token:
        args += ["-H", f"authorization: Bearer {token}"]
    result = subprocess.run(args + [address, method], capture_output=True, text=True)
    if result.returncode != 0:
        raise AssertionError(f"{method}: {result.stderr.strip()}")
    return json.loads(result.stdout)


def seconds_until_goaway(address: str, within: float) -> float | None:
    """Opens one HTTP/2 connection (prior knowledge, as gRPC clients do), keeps it open and idle,
    and returns how long until the server sent GOAWAY; None if it did not within `within`."""
    host, port = address.rsplit(":", 1)
    start = time.monotonic()
    with socket.create_connection((host, int(port)), timeout=within) as conn:
        conn.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(4, 0, b""))
        buffer = b""
        while (left := within - (time.monotonic() - start)) > 0:
            conn.settimeout(left)
            try:
                chunk = conn.recv(65536)
            except socket.timeout:
                return None
            if not chunk:
                return None
            buffer += chunk
            while len(buffer) >= 9:
                length = int.from_bytes(buffer[:3], "big")
                if len(buffer) < 9 + length:
                    break
                kind, flags, payload = buffer[3], buffer[4], buffer[9:9 + length]
                buffer = buffer[9 + length:]
                if kind == 7:
                    return time.monotonic() - start
                if kind == 4 and not flags & 1:
                    conn.sendall(frame(4, 1, b""))  # SETTINGS acknowledged
                if kind == 6 and not flags & 1:
                    conn.sendall(frame(6, 1, payload))  # PING answered
    return None


def frame(kind: int, flags: int, payload: bytes) -> bytes:
    return len(payload).to_bytes(3, "big") + struct.pack(">BBI", kind, flags, 0) + payload


def image_values(service: str) -> dict[str, str]:
    """The chart values that run this checkout's image (ACME_IMAGE_TAG), never pulled."""
    return {"image.repository": f"acme/{service}", "image.tag": os.environ.get("ACME_IMAGE_TAG", "latest"),
            "image.pullPolicy": "Never"}
