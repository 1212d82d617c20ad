// The store is the service's memory (the data folder, or PostgreSQL): users, password hashes
// and the signing key survive a restart, and a second start does not need the admin password.
import assert from "node:assert/strict";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Code, createClient } from "@connectrpc/connect";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { Role } from "@acme/contracts/acme/auth/v1/user_pb";
import { createApp } from "../src/app.js";
import { KEY_FILE } from "../src/signing-key.js";
import { DATABASE_FILE } from "../src/sqlite-store.js";
import { ADMIN, bearer, captureLogger, rejects, removeDir, startTestServer, store, tempDataDir, testConfig } from "./support.js";

describe("restart", () => {
  it("keeps users, password hashes and the signing key", async () => {
    const dataDir = await tempDataDir();
    try {
      const first = await startTestServer({}, dataDir);
      const client1 = createClient(AuthService, first.clients.transport("grpc"));
      const admin = (await client1.login(ADMIN)).token;
      await client1.createUser({ username: "olga", password: "olga-password-1", roles: [Role.USER] }, bearer(admin));
      await client1.disableUser({ username: "olga" }, bearer(admin));
      await client1.createUser({ username: "pete", password: "pete-password-1", roles: [Role.USER] }, bearer(admin));
      const peteToken = (await client1.login({ username: "pete", password: "pete-password-1" })).token;
      const kid = first.server.app.signingKey.kid;
      await first.close();

      // No admin password this time: the database is not empty, so none is needed.
      const second = await startTestServer({ adminPassword: undefined }, dataDir);
      try {
        const client2 = createClient(AuthService, second.clients.transport("connect"));
        assert.equal(second.server.app.signingKey.kid, kid, "same signing key");
        assert.equal((await client2.validateToken({ token: peteToken })).subject, "pete", "old token still valid");
        assert.equal((await client2.validateToken({ token: admin })).subject, ADMIN.username);
        assert.ok((await client2.login({ username: "pete", password: "pete-password-1" })).token);
        await rejects(client2.login({ username: "olga", password: "olga-password-1" }), Code.Unauthenticated);
        const users = (await client2.listUsers({}, bearer(admin))).users;
        assert.deepEqual(
          users.map((u) => [u.username, u.disabled]),
          [
            ["admin", false],
            ["olga", true],
            ["pete", false],
          ],
        );
        assert.ok(!second.lines.some((l) => l.includes("generated a new token signing key")));
      } finally {
        await second.close();
      }
      if (store === "sqlite") {
        assert.equal((await stat(join(dataDir, KEY_FILE))).mode & 0o777, 0o600, "key file is private");
        await stat(join(dataDir, DATABASE_FILE));
      }
    } finally {
      await removeDir(dataDir);
    }
  });

  it("refuses a first start without an admin password, or with one that breaks the rules", async () => {
    for (const [overrides, reason] of [
      [{ adminPassword: undefined }, /AUTH_ADMIN_PASSWORD/],
      [{ adminPassword: "short" }, /password: .*string\.min_len/],
      [{ adminUsername: "Admin User" }, /username: .*string\.pattern/],
    ] as const) {
      const dataDir = await tempDataDir();
      try {
        await assert.rejects(createApp(testConfig(dataDir, overrides), captureLogger().log), reason);
      } finally {
        await removeDir(dataDir);
      }
    }
  });
});
