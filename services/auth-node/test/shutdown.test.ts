// Graceful shutdown: a call in flight when shutdown starts still gets its answer, new
// connections are refused, and a call that outlasts the grace period is cut off.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { ADMIN, clientsFor, rejects, type Started, startTestServer } from "./support.js";

/** Resolves when the server has taken the next call (its metrics record opens). */
function arrived(s: Started): Promise<void> {
  const metrics = s.server.app.metrics;
  const start = metrics.start.bind(metrics);
  return new Promise((resolve) => {
    metrics.start = (...args) => {
      metrics.start = start;
      resolve();
      return start(...args);
    };
  });
}

// A deliberately slow password hash (2^17: hundreds of ms) keeps a Login in flight long
// enough to start shutting down under it.
const SLOW = { scryptLogN: 17 };

describe("graceful shutdown", () => {
  it("finishes calls in flight, then refuses new connections", async () => {
    const s = await startTestServer({ ...SLOW, shutdownGraceMs: 30_000 });
    try {
      const client = createClient(AuthService, s.clients.transport("grpc"));
      // Shutdown starts once the server has the call, not after a guess at how long that takes:
      // a GOAWAY sent before the request arrived refuses it, as it should.
      const taken = arrived(s);
      const inFlight = client.login(ADMIN);
      await taken;
      const closing = s.server.close();
      const { token } = await inFlight;
      assert.ok(token, "the call in flight was answered");
      await closing;
      const fresh = clientsFor(s.server.port);
      try {
        await rejects(createClient(AuthService, fresh.transport("connect")).validateToken({ token }), Code.Unavailable);
      } finally {
        fresh.close();
      }
    } finally {
      await s.close();
    }
  });

  it("cuts off calls that outlast the grace period", async () => {
    const s = await startTestServer({ ...SLOW, shutdownGraceMs: 0 });
    try {
      const client = createClient(AuthService, s.clients.transport("grpc"));
      const taken = arrived(s);
      const inFlight = client.login(ADMIN).then(
        () => undefined,
        (err: unknown) => ConnectError.from(err),
      );
      await taken;
      await s.server.close();
      const err = await inFlight;
      assert.ok(err, "the call did not complete");
      assert.ok([Code.Canceled, Code.Unavailable, Code.Internal, Code.Aborted].includes(err.code), `code ${Code[err.code]}`);
      assert.ok(s.lines.some((l) => l.includes("grace period over")));
    } finally {
      await s.close();
    }
  });
});
