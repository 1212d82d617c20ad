// gRPC health and reflection on the real server: through generated clients, and through
// grpcurl, a third-party client that knows nothing of our code but what reflection serves.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { after, before, describe, it } from "node:test";
import { createFileRegistry, fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { Code, createClient } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus as Status } from "../src/gen/grpc/health/v1/health_pb.js";
import { ServerReflection, type ServerReflectionRequest } from "../src/gen/grpc/reflection/v1/reflection_pb.js";
import { ServerReflection as ServerReflectionAlpha } from "../src/gen/grpc/reflection/v1alpha/reflection_pb.js";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ServerReflectionRequestSchema } from "../src/gen/grpc/reflection/v1/reflection_pb.js";
import { rejects, type Started, startTestServer } from "./support.js";

const run = promisify(execFile);
const grpcurl = fileURLToPath(new URL("../../../../.tmp/bin/grpcurl", import.meta.url));
const SERVICES = [
  "acme.auth.v1.AuthService",
  "grpc.health.v1.Health",
  "grpc.reflection.v1.ServerReflection",
  "grpc.reflection.v1alpha.ServerReflection",
];

async function* once<T>(...items: T[]) {
  yield* items;
}

describe("reflection", () => {
  let s: Started;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  const ask = async (...requests: MessageInitShape<typeof ServerReflectionRequestSchema>[]) => {
    const client = createClient(ServerReflection, s.clients.transport("grpc"));
    const responses = [];
    for await (const res of client.serverReflectionInfo(once(...requests) as AsyncIterable<ServerReflectionRequest>)) {
      responses.push(res);
    }
    return responses;
  };

  it("lists the served services, in v1 and v1alpha", async () => {
    const [v1] = await ask({ messageRequest: { case: "listServices", value: "" } });
    assert.equal(v1?.messageResponse.case, "listServicesResponse");
    assert.deepEqual(v1.messageResponse.value.service.map((x) => x.name).sort(), SERVICES);

    const alpha = createClient(ServerReflectionAlpha, s.clients.transport("grpc"));
    const names = [];
    for await (const res of alpha.serverReflectionInfo(once({ messageRequest: { case: "listServices", value: "" } }) as never)) {
      if (res.messageResponse.case === "listServicesResponse") names.push(...res.messageResponse.value.service.map((x) => x.name));
    }
    assert.deepEqual(names.sort(), SERVICES);
  });

  it("serves real descriptors a client can rebuild the service from, imports included", async () => {
    const [res] = await ask({ messageRequest: { case: "fileContainingSymbol", value: "acme.auth.v1.AuthService.Login" } });
    assert.equal(res?.messageResponse.case, "fileDescriptorResponse");
    const files = res.messageResponse.value.fileDescriptorProto.map((b) => fromBinary(FileDescriptorProtoSchema, b));
    assert.equal(files[0]?.name, "acme/auth/v1/auth_service.proto");
    for (const dep of ["acme/auth/v1/user.proto", "buf/validate/validate.proto", "google/protobuf/timestamp.proto"]) {
      assert.ok(files.some((f) => f.name === dep), `includes ${dep}`);
    }
    // Files come requested-first (as grpc-go sends them); resolve imports by name.
    const registry = createFileRegistry(files[0]!, (name) => files.find((f) => f.name === name));
    const service = registry.getService("acme.auth.v1.AuthService");
    assert.deepEqual(service?.methods.map((m) => m.name), ["Login", "ValidateToken", "CreateUser", "DisableUser", "ListUsers"]);
    assert.equal(registry.getMessage("acme.auth.v1.LoginRequest")?.fields.map((f) => f.name).join(), "username,password");
  });

  it("answers by file name, by extension and with NOT_FOUND for what it does not know", async () => {
    const responses = await ask(
      { messageRequest: { case: "fileByFilename", value: "acme/auth/v1/user.proto" } },
      { messageRequest: { case: "allExtensionNumbersOfType", value: "google.protobuf.FieldOptions" } },
      { messageRequest: { case: "fileContainingExtension", value: { containingType: "google.protobuf.FieldOptions", extensionNumber: 1159 } } },
      { messageRequest: { case: "fileContainingSymbol", value: "acme.auth.v1.NoSuchThing" } },
      { messageRequest: { case: "fileByFilename", value: "no/such.proto" } },
    );
    const [byName, extensions, byExtension, noSymbol, noFile] = responses.map((r) => r.messageResponse);
    assert.equal(byName?.case === "fileDescriptorResponse" && fromBinary(FileDescriptorProtoSchema, byName.value.fileDescriptorProto[0]!).name, "acme/auth/v1/user.proto");
    assert.ok(extensions?.case === "allExtensionNumbersResponse" && extensions.value.extensionNumber.includes(1159), "buf.validate.field is extension 1159");
    assert.equal(byExtension?.case === "fileDescriptorResponse" && fromBinary(FileDescriptorProtoSchema, byExtension.value.fileDescriptorProto[0]!).name, "buf/validate/validate.proto");
    for (const missing of [noSymbol, noFile]) {
      assert.equal(missing?.case, "errorResponse");
      assert.equal(missing.value.errorCode, Code.NotFound);
    }
  });

  it("lets grpcurl list, describe and call the service, and decode the validation details", async (t) => {
    assert.ok(existsSync(grpcurl), `grpcurl is installed by 'make setup' at ${grpcurl}`);
    const address = `127.0.0.1:${s.server.port}`;
    const list = await run(grpcurl, ["-plaintext", address, "list"]);
    assert.deepEqual(list.stdout.trim().split("\n").sort(), SERVICES);
    const describe = await run(grpcurl, ["-plaintext", address, "describe", "acme.auth.v1.AuthService"]);
    assert.match(describe.stdout, /rpc Login \( \.acme\.auth\.v1\.LoginRequest \) returns \( \.acme\.auth\.v1\.LoginResponse \)/);
    const login = await run(grpcurl, ["-plaintext", "-d", '{"username":"admin","password":"admin-password-123"}', address, "acme.auth.v1.AuthService/Login"]);
    assert.match(JSON.parse(login.stdout).token, /^ey[\w-]+\.[\w-]+\.[\w-]+$/);
    const invalid = await run(grpcurl, ["-plaintext", "-d", '{"username":"X","password":""}', address, "acme.auth.v1.AuthService/Login"]).then(
      () => assert.fail("grpcurl call should fail"),
      (err: { stdout: string; stderr: string }) => err.stdout + err.stderr,
    );
    t.diagnostic(invalid.split("\n").slice(0, 3).join(" | "));
    assert.match(invalid, /Code: InvalidArgument/);
    assert.match(invalid, /"@type": "type.googleapis.com\/buf.validate.Violations"/);
    assert.match(invalid, /"ruleId": "string.pattern"/);
    assert.match(invalid, /"ruleId": "string.min_len"/);
    const health = await run(grpcurl, ["-plaintext", address, "grpc.health.v1.Health/Check"]);
    assert.equal(JSON.parse(health.stdout).status, "SERVING");
  });
});

describe("health", () => {
  it("reports SERVING per service, NOT_FOUND for others, and NOT_SERVING to watchers on shutdown", async () => {
    const s = await startTestServer();
    try {
      for (const protocol of ["grpc", "grpc-web", "connect"] as const) {
        const health = createClient(Health, s.clients.transport(protocol));
        assert.equal((await health.check({ service: "" })).status, Status.SERVING);
        assert.equal((await health.check({ service: "acme.auth.v1.AuthService" })).status, Status.SERVING);
        await rejects(health.check({ service: "acme.nope.v1.NopeService" }), Code.NotFound);
      }
      const watch = createClient(Health, s.clients.transport("grpc")).watch({ service: "acme.auth.v1.AuthService" });
      const seen: Status[] = [];
      const watching = (async () => {
        for await (const res of watch) {
          seen.push(res.status);
          if (seen.length === 1) {
            void s.server.close(); // shutdown starts while the watch is open
          }
        }
      })();
      await watching;
      assert.deepEqual(seen, [Status.SERVING, Status.NOT_SERVING]);
    } finally {
      await s.close();
    }
  });
});
