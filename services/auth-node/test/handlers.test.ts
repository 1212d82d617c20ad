// The handlers through Connect's in-memory router transport: the same routes and
// interceptors as the server, no network.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code, createClient } from "@connectrpc/connect";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { authServiceScenarios, rateLimitScenarios } from "./scenarios.js";
import { ADMIN, bearer, inMemory, rejects } from "./support.js";

const target = async (limits = { perUserAndAddress: 1000, perAddress: 1000, perUser: 1000, windowSeconds: 900 }) => {
  const m = await inMemory({ loginLimits: limits });
  return { client: m.client, lines: m.lines, close: m.close };
};

authServiceScenarios("AuthService in memory", () => target());
rateLimitScenarios("login limits in memory", () => target({ perUserAndAddress: 3, perAddress: 6, perUser: 1000, windowSeconds: 900 }));

describe("unexpected failures in memory", () => {
  it("become INTERNAL without internals, and are logged in full", async () => {
    const m = await inMemory();
    try {
      const { token } = await m.client.login(ADMIN);
      m.app.close(); // the database goes away under the running service
      const err = await rejects(createClient(AuthService, m.transport).listUsers({}, bearer(token)), Code.Internal);
      assert.equal(err.rawMessage, "internal error");
      assert.equal(err.details.length, 0);
      assert.ok(m.lines.some((l) => l.includes('"msg":"unexpected error"') && l.includes("database")));
    } finally {
      await m.close();
    }
  });
});
