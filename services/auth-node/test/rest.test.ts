// The REST/JSON twin on its HTTP/1.1 port: same rules, same validation, same errors as
// the RPCs, in the Connect protocol's JSON error shape; plus the JWKS, which lets anyone
// verify our tokens without calling us.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fromBinary } from "@bufbuild/protobuf";
import { base64Decode } from "@bufbuild/protobuf/wire";
import { createLocalJWKSet, jwtVerify } from "jose";
import { ViolationsSchema } from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";
import { LOGIN_FAILED } from "../src/accounts.js";
import { ADMIN, type Started, startTestServer } from "./support.js";
import { SDK_VERSION } from "./contracts-version-expected.js";

describe("REST twin", () => {
  let s: Started;
  let base: string;
  before(async () => {
    s = await startTestServer({ loginLimits: { perUserAndAddress: 3, perAddress: 1000, perUser: 1000, windowSeconds: 900 } });
    base = `http://127.0.0.1:${s.server.restPort}`;
  });
  after(() => s.close());

  const post = async (path: string, body: unknown, contentType = "application/json") => {
    const res = await fetch(base + path, {
      method: "POST",
      headers: { "content-type": contentType },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, any> };
  };

  it("logs in and validates with the proto3 JSON mapping of the same messages", async () => {
    const login = await post("/api/login", ADMIN);
    assert.equal(login.status, 200);
    assert.equal(login.headers.get("acme-contracts-version"), SDK_VERSION, "the REST twin names the contracts version");
    assert.match(login.headers.get("content-type")!, /^application\/json/);
    assert.match(login.json["expiresAt"], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const validated = await post("/api/validate", { token: login.json["token"] });
    assert.equal(validated.status, 200);
    assert.deepEqual(validated.json, { subject: "admin", roles: ["ROLE_ADMIN", "ROLE_USER"], expiresAt: login.json["expiresAt"] });
  });

  it("publishes a JWKS that verifies the tokens on its own", async () => {
    const { json: jwks } = await (async () => {
      const res = await fetch(`${base}/.well-known/jwks.json`);
      return { json: await res.json() };
    })();
    assert.equal(jwks.keys.length, 1);
    assert.equal(jwks.keys[0].d, undefined, "no private part");
    const { token } = (await post("/api/login", ADMIN)).json;
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks), {
      issuer: "acme-auth-test",
      audience: "acme-test",
    });
    assert.equal(payload.sub, "admin");
    assert.equal(protectedHeader.alg, "EdDSA");
    assert.equal(protectedHeader.kid, jwks.keys[0].kid);
  });

  it("answers errors with the RPC's code, message and details, and the matching HTTP status", async () => {
    const wrong = await post("/api/login", { username: "admin", password: "nope" });
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.json, { code: "unauthenticated", message: LOGIN_FAILED });

    const invalid = await post("/api/login", { username: "X", password: "" });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.json["code"], "invalid_argument");
    assert.equal(invalid.json["details"][0].type, "buf.validate.Violations");
    const violations = fromBinary(ViolationsSchema, base64Decode(invalid.json["details"][0].value));
    assert.deepEqual(
      violations.violations.map((v) => [v.field?.elements[0]?.fieldName, v.ruleId]),
      [
        ["username", "string.pattern"],
        ["password", "string.min_len"],
      ],
    );

    const expired = await post("/api/validate", { token: "a.b.c" });
    assert.equal(expired.status, 401);
    for (const [body, contentType] of [
      ['{"username":"admin","password":"x","extra":1}', "application/json"],
      ["{not json", "application/json"],
    ] as const) {
      const res = await post("/api/login", body, contentType);
      assert.equal(res.status, 400, `${contentType} ${body}`);
      assert.equal(res.json["code"], "invalid_argument");
    }
    // Another media type, or another charset, is a representation the twin does not offer.
    for (const contentType of ["text/plain", "application/json; charset=iso-8859-1"]) {
      const res = await post("/api/login", JSON.stringify(ADMIN), contentType);
      assert.equal(res.status, 415, contentType);
      assert.equal(res.json["code"], "unimplemented");
    }
    const tooLarge = await post("/api/login", { username: "admin", password: "x".repeat(70_000) });
    assert.equal(tooLarge.status, 413);
    assert.equal((await fetch(`${base}/api/login`)).status, 405);
    assert.equal((await fetch(`${base}/api/nope`, { method: "POST" })).status, 404);
  });

  it("rate-limits with 429 and Retry-After", async () => {
    for (let i = 0; i < 3; i++) assert.equal((await post("/api/login", { username: "quinn", password: "bad" })).status, 401);
    const limited = await post("/api/login", { username: "quinn", password: "bad" });
    assert.equal(limited.status, 429);
    assert.equal(limited.json["code"], "resource_exhausted");
    const seconds = Number(limited.headers.get("retry-after"));
    assert.ok(seconds > 0 && seconds <= 900, `Retry-After: ${limited.headers.get("retry-after")}`);
    assert.equal(limited.json["details"][0].type, "google.rpc.RetryInfo");
  });

  it("reports health on /healthz", async () => {
    const res = await fetch(`${base}/healthz`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: "SERVING" });
  });
});
