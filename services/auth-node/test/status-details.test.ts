// The error-details contract as other languages see it: a Python grpcio client decodes
// buf.validate.Violations and google.rpc.RetryInfo from grpc-status-details-bin with its
// standard protobuf classes. (grpcurl, a Go client, does the same in health-reflection.)
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { after, before, describe, it } from "node:test";
import { type Started, startTestServer } from "./support.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../../", import.meta.url));
const python = join(root, ".tmp/venv/bin/python");
const script = fileURLToPath(new URL("../../test/python/status_details.py", import.meta.url));

describe("error details in a Python grpcio client", () => {
  let s: Started;
  let generated: string;
  before(async () => {
    s = await startTestServer({ loginLimits: { perUserAndAddress: 3, perAddress: 1000, perUser: 1000, windowSeconds: 900 } });
    // google/rpc/*_pb2 from the same protos the service generates its TypeScript from.
    generated = await mkdtemp(join(tmpdir(), "auth-node-py-"));
    await run(python, ["-m", "grpc_tools.protoc", `-I${join(root, ".tmp/proto-deps-grpc")}`, `--python_out=${generated}`,
      "google/rpc/status.proto", "google/rpc/error_details.proto"]);
  });
  after(async () => {
    await s.close();
    await rm(generated, { recursive: true, force: true });
  });

  it("reads the violations and the retry hint from the standard trailer", async () => {
    const { stdout } = await run(python, [script, `127.0.0.1:${s.server.port}`], {
      env: { ...process.env, PYTHONPATH: [join(root, "gen/python/src"), generated].join(":") },
    });
    const out = JSON.parse(stdout);
    assert.deepEqual(out.invalid, {
      code: "INVALID_ARGUMENT",
      status_code: 3,
      violations: [
        ["username", "string.pattern"],
        ["password", "string.min_len"],
      ],
    });
    assert.equal(out.limited.code, "RESOURCE_EXHAUSTED");
    assert.equal(out.limited.after_attempts, 3);
    assert.ok(out.limited.retry_delay_seconds > 0);
    assert.equal(out.limited.retry_after, String(out.limited.retry_delay_seconds));
  });
});
