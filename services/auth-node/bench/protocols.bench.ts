// ValidateToken side by side over the RPC port (gRPC, gRPC-Web, Connect, all on HTTP/2)
// and the REST twin (HTTP/1.1, keep-alive): latency per call from one client, calls in
// sequence, and the response headers each protocol sends. Run with `make bench-auth`.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { loadConfig } from "../src/config.js";
import { createLogger } from "../src/log.js";
import { startServer } from "../src/server.js";

const calls = Number(process.env["BENCH_CALLS"] ?? 2000);
const dataDir = await mkdtemp(join(tmpdir(), "auth-node-bench-"));
const config = loadConfig({
  AUTH_HOST: "127.0.0.1",
  AUTH_PORT: "0",
  AUTH_REST_PORT: "0",
  AUTH_DATA_DIR: dataDir,
  AUTH_ADMIN_PASSWORD: "bench-admin-password",
});
const server = await startServer(config, createLogger("error"));
const managers: Http2SessionManager[] = [];
try {
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const opts = () => {
    const sessionManager = new Http2SessionManager(baseUrl);
    managers.push(sessionManager);
    return { baseUrl, httpVersion: "2" as const, sessionManager };
  };
  const transports: Record<string, Transport> = {
    gRPC: createGrpcTransport(opts()),
    "gRPC-Web": createGrpcWebTransport(opts()),
    Connect: createConnectTransport(opts()),
  };
  const { token } = await createClient(AuthService, transports["gRPC"]!).login({ username: "admin", password: "bench-admin-password" });

  const measure = async (call: () => Promise<unknown>) => {
    for (let i = 0; i < Math.min(200, calls); i++) await call(); // warm-up
    const times: number[] = [];
    const started = performance.now();
    for (let i = 0; i < calls; i++) {
      const t = performance.now();
      await call();
      times.push(performance.now() - t);
    }
    const total = performance.now() - started;
    times.sort((a, b) => a - b);
    return { median: times[times.length >> 1]!, p99: times[Math.floor(times.length * 0.99)]!, perSecond: (calls / total) * 1000 };
  };

  const rows: Array<[string, { median: number; p99: number; perSecond: number }, string]> = [];
  for (const [name, transport] of Object.entries(transports)) {
    const client = createClient(AuthService, transport);
    let headers = "";
    await client.validateToken({ token }, { onHeader: (h) => (headers = [...h.keys()].join(", ")) });
    rows.push([name, await measure(() => client.validateToken({ token })), headers]);
  }
  const restUrl = `http://127.0.0.1:${server.restPort}/api/validate`;
  const rest = async () => {
    const res = await fetch(restUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }) });
    await res.json();
    return res;
  };
  const restHeaders = [...(await rest()).headers.keys()].join(", ");
  rows.push(["REST (HTTP/1.1)", await measure(rest), restHeaders]);

  console.log(`\nValidateToken, ${calls} sequential calls per protocol, one client, loopback\n`);
  console.log("| protocol        | median ms | p99 ms | calls/s | response headers |");
  console.log("|-----------------|-----------|--------|---------|------------------|");
  for (const [name, m, headers] of rows) {
    console.log(`| ${name.padEnd(15)} | ${m.median.toFixed(3).padStart(9)} | ${m.p99.toFixed(3).padStart(6)} | ${Math.round(m.perSecond).toString().padStart(7)} | ${headers} |`);
  }
} finally {
  managers.forEach((m) => m.abort());
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}
