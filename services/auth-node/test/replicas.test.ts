// Three real auth-node processes on one PostgreSQL, as three replicas behind a balancer: what
// one knows, all know. Five failed logins spread over the three count as five; a user
// disabled at one is refused at the others at once; any replica's token is good at any other.
// Only on PostgreSQL (SQLite is one process's file); the PostgreSQL run demands it ran.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Code, createClient } from "@connectrpc/connect";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { Role } from "@acme/contracts/acme/auth/v1/user_pb";
import { type AuthProcess, startProcess } from "./processes.js";
import { ADMIN, bearer, clientsFor, type Clients, rejects, removeDir, store, tempDataDir } from "./support.js";

describe("three replicas on one PostgreSQL", { skip: store !== "postgres" && "needs PostgreSQL (make test-auth-node-postgres)" }, () => {
  let dataDir: string | undefined;
  let replicas: AuthProcess[] | undefined;
  let clients: Clients[] | undefined;
  const client = (i: number) => createClient(AuthService, clients![i]!.transport("grpc"));

  before(async () => {
    const dir = (dataDir = await tempDataDir());
    // Started together: the first start's migrations and signing key must not race. If one
    // fails to start, the others are stopped before the hook fails with its reason: a replica
    // left running would keep this test file, and so the whole suite, from ever ending.
    const started = await Promise.allSettled([0, 1, 2].map(() => startProcess(dir)));
    replicas = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    const failed = started.flatMap((s) => (s.status === "rejected" ? [s.reason as Error] : []));
    if (failed.length > 0) throw new Error(`${failed.length} of 3 replicas did not start:\n${failed.map((e) => e.message).join("\n")}`);
    clients = replicas.map((r) => clientsFor(r.port));
  });
  after(async () => {
    clients?.forEach((c) => c.close());
    await Promise.all((replicas ?? []).map((r) => r.stop()));
    if (dataDir) await removeDir(dataDir);
  });

  it("share one signing key: a token from any replica is good at every replica", async () => {
    for (let i = 0; i < 3; i++) {
      const { token } = await client(i).login(ADMIN);
      for (let j = 0; j < 3; j++) assert.equal((await client(j).validateToken({ token })).subject, ADMIN.username, `${i} → ${j}`);
    }
    assert.equal(replicas!.flatMap((r) => r.lines).filter((l) => l.includes("generated a new token signing key")).length, 1);
  });

  it("count five failed logins spread over the three as five", async () => {
    // Every attempt comes from 127.0.0.1: the per-user-and-address limit (5) is the one met.
    const wrong = { username: "spread-guess", password: "wrong-password-1" };
    for (const i of [0, 1, 2, 0, 1]) await rejects(client(i).login(wrong), Code.Unauthenticated);
    for (let i = 0; i < 3; i++) {
      const err = await rejects(client(i).login(wrong), Code.ResourceExhausted);
      assert.match(err.rawMessage, /too many failed logins/);
    }
  });

  it("refuse a user disabled at one replica at every other, at once", async () => {
    const { token: admin } = await client(0).login(ADMIN);
    await client(0).createUser({ username: "replicated", password: "replicated-password-1", roles: [Role.USER] }, bearer(admin));
    const { token } = await client(1).login({ username: "replicated", password: "replicated-password-1" });
    assert.equal((await client(2).validateToken({ token })).subject, "replicated");
    await client(2).disableUser({ username: "replicated" }, bearer(admin));
    for (let i = 0; i < 3; i++) await rejects(client(i).validateToken({ token }), Code.Unauthenticated);
    await rejects(client(1).login({ username: "replicated", password: "replicated-password-1" }), Code.Unauthenticated);
  });
});
