// A crash keeps what was acknowledged: users are created and disabled under load, auth-node is
// killed with SIGKILL in the middle of it (no shutdown, nothing flushed), and started again on
// the same store. Every user whose CreateUser was answered OK exists, every user whose
// DisableUser was answered OK is still disabled — a disabled user who comes back after a crash
// is a security hole — and that user's tokens stay refused; the others' tokens still validate
// (the signing key survived too). On SQLite and, in the PostgreSQL run, on PostgreSQL.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { Role } from "@acme/contracts/acme/auth/v1/user_pb";
import { startProcess } from "./processes.js";
import { ADMIN, bearer, clientsFor, rejects, removeDir, store, tempDataDir } from "./support.js";

describe(`a crash of auth-node (${store})`, () => {
  it("loses no acknowledged user, and brings back no disabled one", async (t) => {
    const dataDir = await tempDataDir();
    try {
      const first = await startProcess(dataDir);
      const clients = clientsFor(first.port);
      const client = createClient(AuthService, clients.transport("grpc"));
      const { token: admin } = await client.login(ADMIN);

      const created: string[] = [];
      const disabled: string[] = [];
      const tokens = new Map<string, string>();
      let crashed = false;
      // Four writers: each creates users, logs every third in (a token to check later) and
      // disables every other of those, as fast as the service answers, until the kill.
      const writer = async (w: number) => {
        for (let i = 0; !crashed; i++) {
          const username = `crash-${w}-${i}`;
          const password = `${username}-password`;
          try {
            await client.createUser({ username, password, roles: [Role.USER] }, bearer(admin));
            created.push(username);
            if (i % 3 !== 0) continue;
            tokens.set(username, (await client.login({ username, password })).token);
            if (i % 2 !== 0) continue;
            await client.disableUser({ username }, bearer(admin));
            disabled.push(username);
          } catch (err) {
            if (!crashed) throw err;
            return; // the call the kill cut off: its outcome is unknown, so nothing is claimed
          }
        }
      };
      const writers = [0, 1, 2, 3].map(writer);
      while (disabled.length < 10 || created.length < 60) await new Promise((resolve) => setTimeout(resolve, 20));
      crashed = true;
      await first.kill();
      await Promise.all(writers);
      clients.close();

      const second = await startProcess(dataDir);
      const after = clientsFor(second.port);
      try {
        const again = createClient(AuthService, after.transport("grpc"));
        const users = new Map((await again.listUsers({}, bearer(admin))).users.map((u) => [u.username, u.disabled]));
        const lost = created.filter((u) => !users.has(u));
        const revived = disabled.filter((u) => users.get(u) !== true);
        t.diagnostic(`${created.length} users created and ${disabled.length} disabled before the kill; lost ${lost.length}, revived ${revived.length}`);
        assert.deepEqual(lost, [], "acknowledged users lost");
        assert.deepEqual(revived, [], "acknowledged disables undone");
        for (const [username, token] of tokens) {
          if (disabled.includes(username)) {
            await rejects(again.validateToken({ token }), Code.Unauthenticated);
          } else if (users.get(username) === false) {
            assert.equal((await again.validateToken({ token })).subject, username);
          }
        }
      } finally {
        after.close();
        await second.stop();
      }
    } finally {
      await removeDir(dataDir);
    }
  });

  it("keeps a disable acknowledged just before the kill", async () => {
    const dataDir = await tempDataDir();
    try {
      const first = await startProcess(dataDir);
      const clients = clientsFor(first.port);
      const client = createClient(AuthService, clients.transport("grpc"));
      const { token: admin } = await client.login(ADMIN);
      await client.createUser({ username: "last-words", password: "last-words-password", roles: [Role.USER] }, bearer(admin));
      const { token } = await client.login({ username: "last-words", password: "last-words-password" });
      await client.disableUser({ username: "last-words" }, bearer(admin));
      await first.kill(); // the very next thing after the OK
      clients.close();

      const second = await startProcess(dataDir);
      const after = clientsFor(second.port);
      try {
        const again = createClient(AuthService, after.transport("connect"));
        const err = await rejects(again.validateToken({ token }), Code.Unauthenticated);
        assert.ok(err instanceof ConnectError);
        await rejects(again.login({ username: "last-words", password: "last-words-password" }), Code.Unauthenticated);
        const users = (await again.listUsers({}, bearer(admin))).users;
        assert.equal(users.find((u) => u.username === "last-words")?.disabled, true);
      } finally {
        after.close();
        await second.stop();
      }
    } finally {
      await removeDir(dataDir);
    }
  });
});
