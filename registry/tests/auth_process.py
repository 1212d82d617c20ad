"""The auth service (services/auth-node) as a real process for the registry's token checks:
its own data folder, every port chosen by the service (port 0) and read from its start-up log."""

import json
import os
import subprocess
import tempfile
import time

ADMIN_PASSWORD = "registry-test-admin-password"


class AuthProcess:
    def __init__(self):
        self.proc = None
        self.rpc = None
        self.rest = None

    def start(self):
        env = dict(os.environ, AUTH_DATA_DIR=tempfile.mkdtemp(prefix="registry-auth-"),
                   AUTH_ADMIN_PASSWORD=ADMIN_PASSWORD, AUTH_PORT="0", AUTH_REST_PORT="0",
                   AUTH_METRICS_ENABLED="false", AUTH_HOST="127.0.0.1")
        self.proc = subprocess.Popen([os.environ["NODE"], "dist/src/main.js"], cwd=os.environ["AUTH_NODE_DIR"],
                                     env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 60
        for line in self.proc.stdout:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if entry.get("msg") == "auth service listening":
                self.rpc = f"127.0.0.1:{entry['port']}"
                self.rest = f"http://127.0.0.1:{entry['restPort']}"
                return
            if time.monotonic() > deadline:
                break
        self.stop()
        raise RuntimeError("the auth service did not start")

    def stop(self):
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=20)
            self.proc.stdout.close()
            self.proc = None
