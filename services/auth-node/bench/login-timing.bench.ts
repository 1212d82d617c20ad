// Login timing by outcome, at the production password-hash cost: an unknown user, a wrong
// password and a disabled user must not be told apart by how long the answer takes.
// Run with `make bench-auth`; prints median, p90 and mean per outcome.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, createRouterTransport } from "@connectrpc/connect";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { Role } from "@acme/contracts/acme/auth/v1/user_pb";
import { createApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { createLogger } from "../src/log.js";

const rounds = Number(process.env["BENCH_LOGIN_ROUNDS"] ?? 30);
const dataDir = await mkdtemp(join(tmpdir(), "auth-node-bench-"));
try {
  const config = {
    ...loadConfig({ AUTH_DATA_DIR: dataDir, AUTH_ADMIN_PASSWORD: "bench-admin-password" }),
    loginLimits: { perUserAndAddress: 1e6, perAddress: 1e6, perUser: 1e6, windowSeconds: 60 },
  };
  const app = await createApp(config, createLogger("error"));
  const client = createClient(AuthService, createRouterTransport(app.routes, { router: { interceptors: app.interceptors } }));
  const { token } = await client.login({ username: "admin", password: "bench-admin-password" });
  const auth = { headers: { authorization: `Bearer ${token}` } };
  for (const username of ["enabled", "disabled"]) {
    await client.createUser({ username, password: "bench-user-password", roles: [Role.USER] }, auth);
  }
  await client.disableUser({ username: "disabled" }, auth);

  const outcomes: Record<string, { username: string; password: string }> = {
    "unknown user": { username: "nobody", password: "bench-user-password" },
    "wrong password": { username: "enabled", password: "not-the-password" },
    "disabled user": { username: "disabled", password: "bench-user-password" },
    "success": { username: "enabled", password: "bench-user-password" },
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(outcomes).map((k) => [k, []]));
  // Interleaved, so drift in machine load hits every outcome alike.
  for (let i = 0; i < rounds; i++) {
    for (const [name, request] of Object.entries(outcomes)) {
      const started = performance.now();
      await client.login(request).catch(() => undefined);
      times[name]!.push(performance.now() - started);
    }
  }
  await app.close();

  console.log(`\nLogin latency by outcome — scrypt N=2^${config.scryptLogN}, ${rounds} rounds, in-memory transport\n`);
  console.log("| outcome        | median ms | p90 ms | mean ms |");
  console.log("|----------------|-----------|--------|---------|");
  for (const [name, list] of Object.entries(times)) {
    const sorted = [...list].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    const mean = list.reduce((a, b) => a + b, 0) / list.length;
    console.log(`| ${name.padEnd(14)} | ${at(0.5).toFixed(1).padStart(9)} | ${at(0.9).toFixed(1).padStart(6)} | ${mean.toFixed(1).padStart(7)} |`);
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
