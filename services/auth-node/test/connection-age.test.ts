// The RPC port's maximum connection age: after it, a connection is sent GOAWAY so the client's
// next calls open a new one (to any replica); the calls in flight on it still get their
// answers, within the grace; past the grace the connection is closed.
import assert from "node:assert/strict";
import type { ClientHttp2Session } from "node:http2";
import { describe, it } from "node:test";
import { create, toBinary } from "@bufbuild/protobuf";
import { LoginRequestSchema } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { envelope, grpc, openCall, session } from "./raw-http2.js";
import { ADMIN, startTestServer } from "./support.js";

const login = envelope(toBinary(LoginRequestSchema, create(LoginRequestSchema, ADMIN)));

/** Resolves when the server sends the session GOAWAY. */
const goaway = (s: ClientHttp2Session) => new Promise<number>((resolve) => s.once("goaway", (code: number) => resolve(code)));

describe("maximum connection age", () => {
  it("sends GOAWAY after the age; the call in flight is answered and a new connection takes the next", async () => {
    const s = await startTestServer({ connectionAge: { maxAgeMs: 1000, graceMs: 30_000 } });
    const old = session(s.server.port);
    try {
      const sent = goaway(old);
      // A call whose request is still arriving when the age is reached.
      const { req, answered } = openCall(old, "Login");
      const started = Date.now();
      assert.equal(await sent, 0, "GOAWAY with NO_ERROR");
      const age = Date.now() - started;
      assert.ok(age >= 850 && age < 5000, `sent after ${age} ms (the age is 1,000 ms ±10 %)`);
      req.end(login);
      assert.equal(await answered, "0", "the call in flight was answered OK");
      const fresh = session(s.server.port);
      try {
        assert.equal((await grpc(fresh, "Login", login)).grpcStatus, 0, "a new connection serves the next call");
      } finally {
        fresh.close();
      }
    } finally {
      old.destroy();
      await s.close();
    }
  });

  it("closes the connection when a call outlasts the grace", async () => {
    const s = await startTestServer({ connectionAge: { maxAgeMs: 500, graceMs: 500 } });
    const old = session(s.server.port);
    try {
      const closed = new Promise<void>((resolve) => old.once("close", () => resolve()));
      old.on("error", () => {});
      // A request that never finishes arriving holds its stream past the grace.
      const req = old.request({ ":method": "POST", ":path": "/acme.auth.v1.AuthService/Login", "content-type": "application/grpc", te: "trailers" });
      req.on("error", () => {});
      req.write(login.subarray(0, 3));
      await goaway(old);
      const started = Date.now();
      await closed;
      const waited = Date.now() - started;
      assert.ok(waited >= 400 && waited < 5000, `closed ${waited} ms after GOAWAY (grace 500 ms)`);
    } finally {
      old.destroy();
      await s.close();
    }
  });

  it("is off by default: a connection lives as long as its client keeps it", async () => {
    const s = await startTestServer();
    const old = session(s.server.port);
    try {
      let got = false;
      old.once("goaway", () => (got = true));
      assert.equal((await grpc(old, "Login", login)).grpcStatus, 0);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal((await grpc(old, "Login", login)).grpcStatus, 0);
      assert.equal(got, false);
    } finally {
      old.close();
      await s.close();
    }
  });
});
