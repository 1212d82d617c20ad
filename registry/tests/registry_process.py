"""The registry as a real process: started on a free port (port 0) with its own database,
stopped and started again on the same database to prove what it stored."""

import os
import subprocess
import tempfile


class RegistryProcess:
    def __init__(self, db: str, args: list[str] | None = None):
        self.db = db
        self.args = args or []
        self.proc = None
        self.url = None

    def start(self) -> str:
        self.proc = subprocess.Popen(
            [os.environ["REGISTRY_BIN"], "-listen", "127.0.0.1:0", "-db", self.db,
             "-buf-config", os.environ["REGISTRY_BUF_CONFIG"], *self.args],
            stdout=subprocess.PIPE, stderr=None, text=True)
        line = self.proc.stdout.readline().strip()
        if not line.startswith("listening on "):
            self.stop()
            raise RuntimeError(f"the registry did not start: {line!r}")
        self.url = line.removeprefix("listening on ")
        return self.url

    def stop(self):
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=20)
            self.proc.stdout.close()
            self.proc = None


def temporary_db() -> str:
    return os.path.join(tempfile.mkdtemp(prefix="schema-registry-"), "registry.db")
