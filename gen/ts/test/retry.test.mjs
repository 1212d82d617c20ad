// The retry policy through a real server: a Connect server on a localhost port answers a given
// number of failures, then OK, and counts what it was sent. The client is the published
// package's interceptors on Connect for Node's gRPC transport, as a user's would be.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http2 from "node:http2";
import { randomUUID } from "node:crypto";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { connectNodeAdapter, createGrpcTransport } from "@connectrpc/connect-node";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { PersonService } from "@acme/contracts/acme/person/v1/person_service_pb";
import { serviceConfig, configuredPolicy, retryInterceptor, refusedStreamInterceptor } from "@acme/contracts/retry";

// failures[rpc]: the codes the next calls of rpc fail with, in order; then OK.
const failures = {};
const received = {};
function answer(rpc, response) {
  received[rpc] = (received[rpc] ?? 0) + 1;
  const code = failures[rpc]?.shift();
  if (code !== undefined) throw new ConnectError(`failing ${rpc} on purpose`, code);
  return response;
}
const server = http2.createServer(
  connectNodeAdapter({
    routes(router) {
      router.service(AuthService, {
        login: () => answer("Login", { token: "t" }),
        validateToken: () => answer("ValidateToken", { subject: "ada" }),
        listUsers: () => answer("ListUsers", {}),
      });
      router.service(PersonService, {
        registerPerson: (req) => answer("RegisterPerson", { person: { ...req.person, id: "p1" } }),
      });
    },
  }),
);
// A stream reset with REFUSED_STREAM, as HAProxy resets a call whose replica went away before answering.
const refusing = http2.createServer();
refusing.on("stream", (stream) => {
  stream.on("error", () => {}); // Node reports the reset it sends as an error of its own stream
  stream.close(http2.constants.NGHTTP2_REFUSED_STREAM);
});
let auth, people, bare, refused;
const listen = (s) => new Promise((resolve) => s.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${s.address().port}`)));
before(async () => {
  const url = await listen(server);
  const interceptors = [retryInterceptor(), refusedStreamInterceptor()];
  auth = createClient(AuthService, createGrpcTransport({ baseUrl: url, interceptors }));
  people = createClient(PersonService, createGrpcTransport({ baseUrl: url, interceptors }));
  const refusingUrl = await listen(refusing);
  bare = createClient(AuthService, createGrpcTransport({ baseUrl: refusingUrl }));
  refused = createClient(AuthService, createGrpcTransport({ baseUrl: refusingUrl, interceptors }));
});
after(() => {
  server.close();
  refusing.close();
});
const reset = () => {
  for (const k of Object.keys(received)) delete received[k];
  for (const k of Object.keys(failures)) delete failures[k];
};
const codeOf = async (promise) => {
  try {
    await promise;
    return "ok";
  } catch (e) {
    return Code[ConnectError.from(e).code];
  }
};

test("the config is the repository's one definition: reads and DisableUser, UNAVAILABLE and INTERNAL", () => {
  assert.equal(serviceConfig.methodConfig.length, 1);
  assert.deepEqual(serviceConfig.methodConfig[0].retryPolicy.retryableStatusCodes, ["UNAVAILABLE", "INTERNAL"]);
  assert.ok(configuredPolicy("acme.auth.v1.AuthService", "ValidateToken"));
  for (const [service, method] of [["acme.auth.v1.AuthService", "Login"], ["acme.auth.v1.AuthService", "CreateUser"], ["acme.person.v1.PersonService", "RegisterPerson"]]) {
    assert.equal(configuredPolicy(service, method), undefined, `${method} must not be in the config`);
  }
});

test("an idempotent RPC is retried on UNAVAILABLE until it succeeds", async () => {
  reset();
  failures.ValidateToken = [Code.Unavailable, Code.Unavailable];
  const res = await auth.validateToken({ token: "t" });
  assert.equal(res.subject, "ada");
  assert.equal(received.ValidateToken, 3);
});

test("at most maxAttempts attempts, then the last UNAVAILABLE", async () => {
  reset();
  failures.ValidateToken = Array(10).fill(Code.Unavailable);
  assert.equal(await codeOf(auth.validateToken({ token: "t" })), "Unavailable");
  assert.equal(received.ValidateToken, serviceConfig.methodConfig[0].retryPolicy.maxAttempts);
});

// A stream cut before its status arrived (a balancer's replica died mid-answer) is INTERNAL
// ("missing status"): the outcome is unknown, and an idempotent RPC may be sent again.
test("an idempotent RPC is retried on INTERNAL", async () => {
  reset();
  failures.ValidateToken = [Code.Internal];
  assert.equal((await auth.validateToken({ token: "t" })).subject, "ada");
  assert.equal(received.ValidateToken, 2);
});

test("a code that tells the outcome is not retried", async () => {
  for (const code of [Code.Unknown, Code.DeadlineExceeded, Code.Unauthenticated]) {
    reset();
    failures.ListUsers = [code];
    assert.equal(await codeOf(auth.listUsers({})), Code[code]);
    assert.equal(received.ListUsers, 1, Code[code]);
  }
});

test("a non-idempotent RPC is not retried", async () => {
  reset();
  failures.Login = [Code.Unavailable];
  assert.equal(await codeOf(auth.login({ username: "ada", password: "x" })), "Unavailable");
  assert.equal(received.Login, 1);
});

test("RegisterPerson is retried only with a request_id", async () => {
  reset();
  failures.RegisterPerson = [Code.Unavailable];
  assert.equal(await codeOf(people.registerPerson({ person: { name: "Ada" } })), "Unavailable");
  assert.equal(received.RegisterPerson, 1);
  reset();
  failures.RegisterPerson = [Code.Unavailable, Code.Unavailable];
  const res = await people.registerPerson({ requestId: randomUUID(), person: { name: "Ada" } });
  assert.equal(res.person.id, "p1");
  assert.equal(received.RegisterPerson, 3);
});

test("no retry starts after the call's deadline", async () => {
  reset();
  failures.ValidateToken = Array(10).fill(Code.Unavailable);
  const started = Date.now();
  assert.equal(await codeOf(auth.validateToken({ token: "t" }, { timeoutMs: 1 })), "DeadlineExceeded");
  assert.ok((received.ValidateToken ?? 0) <= 1, `${received.ValidateToken} attempts`);
  assert.ok(Date.now() - started < 1000);
});

// connect-node 2.2.0 reports a stream reset with REFUSED_STREAM as INTERNAL (Node emits the
// stream's "error" before its "close"). If this starts to fail, connect-node maps it itself and
// refusedStreamInterceptor can go.
test("connect-node alone reports REFUSED_STREAM as INTERNAL", async () => {
  assert.equal(await codeOf(bare.validateToken({ token: "t" })), "Internal");
});

// INTERNAL is retried too, so the attempt counts below hold either way; the final codes are
// what show the interceptor's mapping.
test("with refusedStreamInterceptor, REFUSED_STREAM is UNAVAILABLE, and retried", async () => {
  let resets = 0;
  const count = () => resets++;
  refusing.on("stream", count);
  try {
    assert.equal(await codeOf(refused.validateToken({ token: "t" })), "Unavailable");
    assert.equal(resets, serviceConfig.methodConfig[0].retryPolicy.maxAttempts);
    assert.equal(await codeOf(refused.login({ username: "ada", password: "x" })), "Unavailable");
    assert.equal(resets, serviceConfig.methodConfig[0].retryPolicy.maxAttempts + 1);
  } finally {
    refusing.off("stream", count);
  }
});
