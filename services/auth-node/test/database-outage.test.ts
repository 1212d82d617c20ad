// A PostgreSQL that goes away under a running auth-node: every call that needs it fails with
// UNAVAILABLE — never a hang, never INTERNAL — while the server is down, and calls succeed
// again once it is back, with what was written before still there. Only on PostgreSQL, whose
// test run demands it ran (the throwaway server is stopped and started by the test).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { Role } from "@acme/contracts/acme/auth/v1/user_pb";
import { postgresServer } from "./processes.js";
import { ADMIN, bearer, rejects, type Started, startTestServer, store } from "./support.js";

describe("the database goes away", { skip: store !== "postgres" && "needs PostgreSQL (make test-auth-node-postgres)" }, () => {
  let s: Started;
  before(async () => {
    assert.ok(postgresServer, "the PostgreSQL run names its server (AUTH_TEST_POSTGRES_DATA, AUTH_TEST_POSTGRES_BIN)");
    s = await startTestServer();
  });
  after(async () => {
    await s.close();
  });

  it("answers UNAVAILABLE while it is down, and recovers when it returns", async () => {
    const client = createClient(AuthService, s.clients.transport("grpc"));
    const { token: admin } = await client.login(ADMIN);
    await client.createUser({ username: "before-outage", password: "before-outage-1", roles: [Role.USER] }, bearer(admin));

    postgresServer!.stop();
    try {
      const calls = [
        client.validateToken({ token: admin }),
        client.login(ADMIN),
        client.listUsers({}, bearer(admin)),
        client.createUser({ username: "during-outage", password: "during-outage-1", roles: [Role.USER] }, bearer(admin)),
        client.disableUser({ username: "before-outage" }, bearer(admin)),
      ];
      for (const call of calls) {
        const started = performance.now();
        const err = await rejects(call, Code.Unavailable);
        assert.match(err.rawMessage, /unavailable/);
        // Bounded by AUTH_DATABASE_TIMEOUT_SECONDS (5 s here), not left hanging.
        assert.ok(performance.now() - started < 15_000);
      }
      assert.ok(!s.lines.some((l) => l.includes('"msg":"unexpected error"')), "no call became INTERNAL");
    } finally {
      postgresServer!.start();
    }

    // The pool opens new connections: no restart of auth-node needed.
    let recovered: unknown;
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        recovered = await client.validateToken({ token: admin });
        break;
      } catch (err) {
        assert.equal(ConnectError.from(err).code, Code.Unavailable, "only UNAVAILABLE while it comes back");
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    assert.ok(recovered, "calls succeed again");
    const users = (await client.listUsers({}, bearer(admin))).users.map((u) => [u.username, u.disabled]);
    // Written before: kept. Refused during: not written, not half-written.
    assert.deepEqual(users, [
      [ADMIN.username, false],
      ["before-outage", false],
    ]);
  });
});
