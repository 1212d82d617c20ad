// What every auth-node feature needs: a client of the SDK's AuthService over the protocol
// under test, the admin credentials and the run id that prefixes every username.
import { type Client, createClient } from "@connectrpc/connect";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { Role } from "@acme/contracts/acme/auth/v1/user_pb";
import type { LiveEnv } from "../env.js";
import { type Protocol, transportFor } from "../transport.js";
import { expect, ok } from "../check.js";

export interface AuthSession {
  env: LiveEnv;
  protocol: Protocol;
  client: Client<typeof AuthService>;
}

export function authSession(env: LiveEnv, protocol: Protocol): AuthSession {
  return { env, protocol, client: createClient(AuthService, transportFor(env.authTarget, protocol)) };
}

export function bearer(token: string): { headers: { authorization: string } } {
  return { headers: { authorization: `Bearer ${token}` } };
}

export async function adminToken(client: Client<typeof AuthService>, env: LiveEnv): Promise<string> {
  const res = await ok(client.login({ username: env.adminUsername, password: env.adminPassword }), "Login(admin)");
  expect(res.token !== "", "Login(admin) returned an empty token");
  return res.token;
}

/** Creates a ROLE_USER user with the admin token and returns its token from Login. */
export async function createUserAndLogin(
  client: Client<typeof AuthService>, admin: string, username: string, password: string,
): Promise<string> {
  await ok(client.createUser({ username, password, roles: [Role.USER] }, bearer(admin)), `CreateUser(${username})`);
  const res = await ok(client.login({ username, password }), `Login(${username})`);
  expect(res.token !== "", `Login(${username}) returned an empty token`);
  return res.token;
}
