// ValidateToken against forged, altered and stale tokens. Tokens that should fail are made
// the way an attacker or a misconfigured peer would: with our real key but bad claims,
// with other keys, other algorithms, or no signature at all.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Code } from "@connectrpc/connect";
import { base64url, exportSPKI, generateKeyPair, SignJWT, UnsecuredJWT } from "jose";
import { TOKEN_EXPIRED, TOKEN_INVALID } from "../src/accounts.js";
import { captureLogger, ADMIN, inMemory, type InMemory, rejects } from "./support.js";
import { loadOrCreateSigningKey } from "../src/signing-key.js";
import { TokenService } from "../src/tokens.js";

const ISSUER = "acme-auth-test";
const AUDIENCE = "acme-test";

describe("ValidateToken refuses", () => {
  let m: InMemory;
  let ours: TokenService;
  let kid: string;
  let ourKey: Awaited<ReturnType<typeof loadOrCreateSigningKey>> | undefined;
  const tokenAt = (shiftSeconds: number, settings: Partial<{ issuer: string; audience: string; ttlSeconds: number }> = {}) =>
    new TokenService(
      ourKey!,
      { issuer: ISSUER, audience: AUDIENCE, ttlSeconds: 600, clockSkewSeconds: 30, ...settings },
      () => Date.now() + shiftSeconds * 1000,
    ).issue(ADMIN.username, ["ROLE_ADMIN", "ROLE_USER"]);

  before(async () => {
    m = await inMemory();
    // The service's own key, read back from its store as an insider would.
    ourKey = await loadOrCreateSigningKey(m.app.stores.signingKey, captureLogger().log);
    kid = ourKey.kid;
    ours = new TokenService(ourKey, { issuer: ISSUER, audience: AUDIENCE, ttlSeconds: 600, clockSkewSeconds: 30 });
  });
  after(() => m.close());

  const refused = async (token: string, message = TOKEN_INVALID) => {
    const err = await rejects(m.client.validateToken({ token }), Code.Unauthenticated);
    assert.equal(err.rawMessage, message);
  };

  it("accepts our own fresh token (the control case)", async () => {
    const { token } = await ours.issue(ADMIN.username, ["ROLE_ADMIN"]);
    assert.equal((await m.client.validateToken({ token })).subject, ADMIN.username);
  });

  it("an expired token, but tolerates expiry within the clock skew", async () => {
    await refused((await tokenAt(-631)).token, TOKEN_EXPIRED);
    const { token } = await tokenAt(-620); // expired 20 s ago: within the 30 s skew
    assert.equal((await m.client.validateToken({ token })).subject, ADMIN.username);
  });

  it("a token issued in the future beyond the skew", async () => {
    await refused((await tokenAt(120)).token);
  });

  it("a token whose payload was altered after signing", async () => {
    const { token } = await ours.issue("frank", ["ROLE_USER"]);
    const [header, payload, signature] = token.split(".");
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload!)));
    claims.roles = ["ROLE_ADMIN"];
    await refused(`${header}.${base64url.encode(JSON.stringify(claims))}.${signature}`);
  });

  it("a token whose signature was altered", async () => {
    const { token } = await ours.issue(ADMIN.username, ["ROLE_ADMIN"]);
    const last = token.at(-2) === "A" ? "B" : "A";
    await refused(token.slice(0, -2) + last + token.at(-1));
  });

  it('an unsigned token ("alg": "none")', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = new UnsecuredJWT({ roles: ["ROLE_ADMIN"] })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(ADMIN.username)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .encode();
    assert.match(token, /\.$/, "an unsecured JWT has an empty signature");
    await refused(token);
  });

  it("an HS256 token keyed with our public key (the algorithm-confusion attack)", async () => {
    const now = Math.floor(Date.now() / 1000);
    const publicKeyBytes = new TextEncoder().encode(await exportSPKI(ourKey!.publicKey));
    for (const secret of [publicKeyBytes, base64url.decode(ourKey!.publicJwk.x!)]) {
      const token = await new SignJWT({ roles: ["ROLE_ADMIN"] })
        .setProtectedHeader({ alg: "HS256", kid })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(ADMIN.username)
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(secret);
      await refused(token);
    }
  });

  it("tokens signed with foreign keys: EdDSA, ES256 and RS256, even when claiming our kid", async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const alg of ["EdDSA", "ES256", "RS256"]) {
      const { privateKey } = await generateKeyPair(alg);
      const token = await new SignJWT({ roles: ["ROLE_ADMIN"] })
        .setProtectedHeader({ alg, kid })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(ADMIN.username)
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(privateKey);
      await refused(token);
    }
  });

  it("our signature but another issuer or audience", async () => {
    await refused((await tokenAt(0, { issuer: "someone-else" })).token);
    await refused((await tokenAt(0, { audience: "another-audience" })).token);
  });

  it("our signature but a missing or unknown roles claim", async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const claims of [{}, { roles: "ROLE_ADMIN" }, { roles: ["ROLE_ROOT"] }]) {
      const token = await new SignJWT(claims)
        .setProtectedHeader({ alg: "EdDSA", kid })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(ADMIN.username)
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(ourKey!.privateKey);
      await refused(token);
    }
  });

  it("a valid token of a user who does not exist", async () => {
    await refused((await ours.issue("ghost", ["ROLE_ADMIN"])).token);
  });

  it("garbage", async () => {
    for (const token of ["x", "a.b.c", "eyJhbGciOiJFZERTQSJ9..", "....."]) await refused(token);
  });
});
