// The auth-node features (compatibility-tests/README.md, "auth-node features"), each over
// the protocol under test with the SDK's AuthService descriptor and Connect for Node.
import { Code } from "@connectrpc/connect";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { timestampDate, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { LoginRequestSchema } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { Role } from "@acme/contracts/acme/auth/v1/user_pb";
import { expect, expectMessage, ok, rejects } from "../check.js";
import { expectViolations, retryInfoOf } from "../status.js";
import { nextClient, nextMessage } from "../next-schema.js";
import { transportFor } from "../transport.js";
import type { Feature } from "../report.js";
import { type AuthSession, adminToken, bearer, createUserAndLogin } from "./session.js";

// Passwords of the users this driver creates: long enough for CreateUser's min_len 12.
const USER_PASSWORD = "compat-user-password-1";

export function authFeatures(s: AuthSession): Record<string, Feature> {
  const { client, env } = s;
  const run = env.runId;
  return {
    async unary() {
      const before = Date.now();
      const login = await ok(client.login({ username: env.adminUsername, password: env.adminPassword }), "Login(admin)");
      expect(login.token !== "", "Login(admin): empty token");
      expect(login.expiresAt !== undefined, "Login(admin): expires_at unset");
      expect(timestampDate(login.expiresAt).getTime() > before, `Login(admin): expires_at ${timestampDate(login.expiresAt).toISOString()} is not in the future`);
      const v = await ok(client.validateToken({ token: login.token }), "ValidateToken");
      expect(v.subject === env.adminUsername, `ValidateToken: subject ${JSON.stringify(v.subject)}, want ${JSON.stringify(env.adminUsername)}`);
      expect(v.roles.includes(Role.ADMIN), `ValidateToken: roles [${v.roles.map((r) => Role[r]).join(", ")}] lack ROLE_ADMIN`);
      expect(v.expiresAt !== undefined, "ValidateToken: expires_at unset");
      expectMessage(TimestampSchema, v.expiresAt, login.expiresAt, "ValidateToken expires_at vs Login's");
    },

    async "auth-metadata"() {
      await rejects(client.listUsers({}), Code.Unauthenticated, "ListUsers without authorization");
      const admin = await adminToken(client, env);
      const list = await ok(client.listUsers({}, bearer(admin)), "ListUsers(admin token)");
      expect(list.users.some((u) => u.username === env.adminUsername), `ListUsers: the admin ${env.adminUsername} is not listed`);
      const userToken = await createUserAndLogin(client, admin, `${run}-user`, USER_PASSWORD);
      await rejects(
        client.createUser({ username: `${run}-user2`, password: USER_PASSWORD, roles: [Role.USER] }, bearer(userToken)),
        Code.PermissionDenied, "CreateUser with a ROLE_USER token");
    },

    async deadline() {
      // A login hashes the password with scrypt (about 50 ms): 5 ms cannot be enough.
      await rejects(client.login({ username: env.adminUsername, password: env.adminPassword }, { timeoutMs: 5 }),
        Code.DeadlineExceeded, "Login with a 5 ms deadline");
    },

    async "error-details"() {
      const invalid = await rejects(client.createUser({ username: "Bad Name!", password: "short", roles: [] }),
        Code.InvalidArgument, "CreateUser(Bad Name!, short, no roles)");
      expectViolations(invalid, ["username/string.pattern", "password/string.min_len", "roles/repeated.min_items"], "CreateUser");
      await rejects(client.login({ username: `${run}-nobody`, password: "wrong" }), Code.Unauthenticated, "Login(nobody, wrong)");
      for (let i = 1; i <= 5; i++) {
        await rejects(client.login({ username: `${run}-rl`, password: "wrong" }), Code.Unauthenticated, `failed login ${i} of ${run}-rl`);
      }
      const limited = await rejects(client.login({ username: `${run}-rl`, password: "wrong" }),
        Code.ResourceExhausted, "the login after 5 failures");
      const retry = retryInfoOf(limited);
      const delay = retry.retryDelay;
      expect(delay !== undefined && (delay.seconds > 0n || (delay.seconds === 0n && delay.nanos > 0)),
        `RetryInfo.retry_delay is not positive: ${delay ? `${delay.seconds}s ${delay.nanos}ns` : "unset"}`);
    },

    async "large-message"() {
      // One character over the rule: refused by validation, with the violation.
      const err = await rejects(client.validateToken({ token: "a".repeat(8193) }), Code.InvalidArgument,
        "ValidateToken(8,193 characters)");
      expectViolations(err, ["token/string.max_len"], "ValidateToken(8,193 characters)");
      // 1 MiB is over the server's message limit: refused before it is read.
      await rejects(client.validateToken({ token: "a".repeat(1024 * 1024) }), Code.ResourceExhausted,
        "ValidateToken(1 MiB token)");
      // The same client (same connection) still works after the refused requests.
      const admin = await adminToken(client, env);
      const v = await ok(client.validateToken({ token: admin }), "ValidateToken after the large one");
      expect(v.subject === env.adminUsername, `ValidateToken after the large one: subject ${v.subject}`);
    },

    async unicode() {
      const nfc = "pässwörd-密码-🔑-ok".normalize("NFC");
      const nfd = nfc.normalize("NFD");
      expect(nfc !== nfd, "the NFD form of the password equals its NFC form: the check would prove nothing");
      const admin = await adminToken(client, env);
      const username = `${run}-uni`;
      await ok(client.createUser({ username, password: nfc, roles: [Role.USER] }, bearer(admin)), `CreateUser(${username})`);
      const a = await ok(client.login({ username, password: nfc }), "Login with the NFC password");
      expect(a.token !== "", "Login with the NFC password: empty token");
      const b = await ok(client.login({ username, password: nfd }), "Login with the NFD password");
      expect(b.token !== "", "Login with the NFD password: empty token");
    },

    async "unknown-fields"() {
      // A client of the newer schema: its LoginRequest has device_name = 3.
      const nextLogin = nextMessage(env.nextDescriptors, "acme.auth.v1.LoginRequest");
      const request = create(nextLogin, { username: env.adminUsername, password: env.adminPassword, deviceName: "compat-ts 🚀" });
      // The field must really travel, as a field the current schema does not know.
      const asCurrent = fromBinary(LoginRequestSchema, toBinary(nextLogin, request));
      expect((asCurrent.$unknown ?? []).some((f) => f.no === 3),
        "the newer LoginRequest does not carry device_name (3) as an unknown field of the current schema");
      const next = nextClient(env.nextDescriptors, "acme.auth.v1.AuthService", transportFor(env.authTarget, s.protocol));
      const res = await ok(next["login"](request), "Login of the newer schema");
      expect(typeof res.token === "string" && res.token !== "", "Login of the newer schema: empty token");
      const v = await ok(client.validateToken({ token: res.token }), "ValidateToken of the newer-schema token");
      expect(v.subject === env.adminUsername, `ValidateToken: subject ${v.subject}`);
    },
  };
}
