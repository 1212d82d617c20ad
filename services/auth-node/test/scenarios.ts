// The AuthService behaviour every transport must show: registered once here, run over the
// in-memory router transport (handlers.test.ts) and over the real server for gRPC,
// gRPC-Web and Connect (server.test.ts), so the protocols cannot drift apart.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type Client, Code, type ConnectError } from "@connectrpc/connect";
import { ViolationsSchema } from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";
import type { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { Role } from "@acme/contracts/acme/auth/v1/user_pb";
import { LOGIN_FAILED } from "../src/accounts.js";
import { RetryInfoSchema } from "../src/gen/google/rpc/error_details_pb.js";
import { ADMIN, bearer, rejects } from "./support.js";

export interface Target {
  client: Client<typeof AuthService>;
  /** Log lines written so far by the service under test. */
  lines: string[];
  close(): Promise<void>;
}

/** Field paths and rule ids of the one buf.validate.Violations detail. */
export function violations(err: ConnectError): Array<[string, string]> {
  const details = err.findDetails(ViolationsSchema);
  assert.equal(details.length, 1, "exactly one buf.validate.Violations detail");
  return details[0]!.violations.map((v) => [
    (v.field?.elements ?? []).map((e) => e.fieldName).join("."),
    v.ruleId,
  ]);
}

export function authServiceScenarios(name: string, setup: () => Promise<Target>): void {
  describe(name, () => {
    let t: Target;
    let adminToken: string;
    const createUser = async (username: string, roles = [Role.USER], password = `${username}-password-1`) => {
      await t.client.createUser({ username, password, roles }, bearer(adminToken));
      return password;
    };
    const loginAs = async (username: string, password: string) => (await t.client.login({ username, password })).token;

    before(async () => {
      t = await setup();
      adminToken = (await t.client.login(ADMIN)).token;
    });
    after(() => t.close());

    it("logs the admin in and validates the token: subject, roles, expiry", async () => {
      const started = Date.now();
      const login = await t.client.login(ADMIN);
      const expiresAt = timestampDate(login.expiresAt!).getTime();
      assert.ok(Math.abs(expiresAt - (started + 600_000)) < 5_000, `expiry ${expiresAt} ≈ now + 600 s`);
      const res = await t.client.validateToken({ token: login.token });
      assert.equal(res.subject, ADMIN.username);
      assert.deepEqual(res.roles, [Role.ADMIN, Role.USER]);
      assert.equal(timestampDate(res.expiresAt!).getTime(), expiresAt);
    });

    it("refuses a wrong password, an unknown user and a disabled user alike", async () => {
      const password = await createUser("carol");
      await createUser("dave");
      const davePassword = "dave-password-1";
      await t.client.disableUser({ username: "dave" }, bearer(adminToken));
      const errors = [
        await rejects(t.client.login({ username: "carol", password: "not-carols-password" }), Code.Unauthenticated),
        await rejects(t.client.login({ username: "nobody", password }), Code.Unauthenticated),
        await rejects(t.client.login({ username: "dave", password: davePassword }), Code.Unauthenticated),
      ];
      for (const err of errors) {
        assert.equal(err.rawMessage, LOGIN_FAILED);
        assert.equal(err.details.length, 0);
      }
      assert.ok(await loginAs("carol", password), "carol's own password still works");
    });

    it("rejects invalid login fields with field paths and rule ids", async () => {
      const err = await rejects(t.client.login({ username: "Bad Name", password: "" }), Code.InvalidArgument);
      assert.deepEqual(violations(err), [
        ["username", "string.pattern"],
        ["password", "string.min_len"],
      ]);
    });

    it("rejects invalid CreateUser fields before checking anything else", async () => {
      const cases: Array<[Parameters<typeof t.client.createUser>[0], Array<[string, string]>]> = [
        [{ username: "erin", password: "short", roles: [Role.USER] }, [["password", "string.min_len"]]],
        [{ username: "erin", password: "long-enough-pass", roles: [] }, [["roles", "repeated.min_items"]]],
        [{ username: "erin", password: "long-enough-pass", roles: [Role.UNSPECIFIED] }, [["roles", "enum.not_in"]]],
        [{ username: "erin", password: "long-enough-pass", roles: [Role.USER, Role.USER] }, [["roles", "repeated.unique"]]],
        [{ username: "erin", password: "long-enough-pass", roles: [7 as Role] }, [["roles", "enum.defined_only"]]],
        [{ username: "9erin", password: "long-enough-pass", roles: [Role.USER] }, [["username", "string.pattern"]]],
      ];
      for (const [request, expected] of cases) {
        const err = await rejects(t.client.createUser(request, bearer(adminToken)), Code.InvalidArgument);
        assert.deepEqual(violations(err), expected, JSON.stringify(request, (_k, v) => v));
      }
      const list = await t.client.listUsers({}, bearer(adminToken));
      assert.ok(!list.users.some((u) => u.username.includes("erin")), "no invalid user was stored");
    });

    it("refuses admin RPCs without a token, with a bad token, and without ROLE_ADMIN", async () => {
      const password = await createUser("frank");
      const userToken = await loginAs("frank", password);
      const calls = {
        createUser: (o?: object) => t.client.createUser({ username: "grace", password: "grace-password-1", roles: [Role.USER] }, o),
        disableUser: (o?: object) => t.client.disableUser({ username: "frank" }, o),
        listUsers: (o?: object) => t.client.listUsers({}, o),
      };
      for (const [rpc, call] of Object.entries(calls)) {
        await rejects(call(), Code.Unauthenticated).catch((e) => assert.fail(`${rpc} without token: ${e}`));
        await rejects(call(bearer("not.a.token")), Code.Unauthenticated);
        await rejects(call({ headers: { authorization: `Basic ${btoa("admin:admin-password-123")}` } }), Code.Unauthenticated);
        const denied = await rejects(call(bearer(userToken)), Code.PermissionDenied);
        assert.match(denied.rawMessage, /ROLE_ADMIN/);
      }
      await rejects(t.client.login({ username: "grace", password: "grace-password-1" }), Code.Unauthenticated);
      assert.ok(await loginAs("frank", password), "frank was not disabled by his own call");
    });

    it("creates users once, lists them by username, disables them and their tokens", async () => {
      const password = await createUser("zoe", [Role.USER, Role.ADMIN]);
      const dup = await rejects(
        t.client.createUser({ username: "zoe", password: "another-password", roles: [Role.USER] }, bearer(adminToken)),
        Code.AlreadyExists,
      );
      assert.match(dup.rawMessage, /zoe/);
      const zoeToken = await loginAs("zoe", password);
      assert.equal((await t.client.validateToken({ token: zoeToken })).subject, "zoe");
      const zoeCreatesUser = await t.client.createUser(
        { username: "yann", password: "yann-password-1", roles: [Role.USER] },
        bearer(zoeToken),
      );
      assert.deepEqual(zoeCreatesUser.user?.roles, [Role.USER]);
      assert.equal(zoeCreatesUser.user?.disabled, false);

      const names = (await t.client.listUsers({}, bearer(adminToken))).users.map((u) => u.username);
      assert.deepEqual(names, [...names].sort());
      assert.ok(names.includes("zoe") && names.includes("yann") && names.includes(ADMIN.username));

      const disabled = await t.client.disableUser({ username: "zoe" }, bearer(adminToken));
      assert.equal(disabled.user?.disabled, true);
      assert.equal(disabled.user?.username, "zoe");
      await rejects(t.client.validateToken({ token: zoeToken }), Code.Unauthenticated);
      await rejects(t.client.listUsers({}, bearer(zoeToken)), Code.Unauthenticated);
      const again = await t.client.disableUser({ username: "zoe" }, bearer(adminToken));
      assert.equal(again.user?.disabled, true, "disabling twice succeeds");
      await rejects(t.client.disableUser({ username: "nobody" }, bearer(adminToken)), Code.NotFound);
      const listed = (await t.client.listUsers({}, bearer(adminToken))).users.find((u) => u.username === "zoe");
      assert.equal(listed?.disabled, true);
      assert.ok(listed?.createdAt && timestampDate(listed.createdAt).getTime() <= Date.now());
    });

    it("never logs a password or a token", async () => {
      const password = await createUser("hank");
      const token = await loginAs("hank", password);
      await t.client.validateToken({ token });
      await rejects(t.client.login({ username: "hank", password: "hank-wrong-password" }), Code.Unauthenticated);
      const log = t.lines.join("\n");
      assert.ok(log.includes('"username":"hank"'), "the logins were logged");
      for (const secret of [password, "hank-wrong-password", ADMIN.password, token, token.split(".")[2]!]) {
        assert.ok(!log.includes(secret), "a secret appears in the logs");
      }
    });
  });
}

/** Failed-login limits. Needs a target whose limits are perUserAndAddress 3, perAddress 6
 * (every call of one target comes from one address). */
export function rateLimitScenarios(name: string, setup: () => Promise<Target>): void {
  describe(name, () => {
    let t: Target;
    before(async () => {
      t = await setup();
    });
    after(() => t.close());

    const expectLimited = async (username: string, password: string) => {
      const err = await rejects(t.client.login({ username, password }), Code.ResourceExhausted);
      const seconds = Number(err.metadata.get("retry-after"));
      assert.ok(seconds > 0 && seconds <= 900, `retry-after ${err.metadata.get("retry-after")}`);
      const [info] = err.findDetails(RetryInfoSchema);
      assert.equal(info?.retryDelay?.seconds, BigInt(seconds));
      assert.match(err.rawMessage, new RegExp(`retry in ${seconds} s`));
    };

    it("limits failed logins per user at an address, then refuses even the right password there", async () => {
      for (let i = 0; i < 3; i++) {
        await rejects(t.client.login({ username: "admin", password: `wrong-${i}` }), Code.Unauthenticated);
      }
      await expectLimited("admin", ADMIN.password);
    });

    it("limits failed logins per client address, across usernames, known or not", async () => {
      // Three failures so far from this address (previous test); three more reach its limit of 6.
      for (const username of ["ivan", "judy", "kim"]) {
        await rejects(t.client.login({ username, password: "whatever" }), Code.Unauthenticated);
      }
      await expectLimited("nobody-yet", "whatever");
    });
  });
}
