// scale-spread.mjs — run by tests/scale.sh against `make up SCALE=N`: from the TypeScript SDK
// (@acme/contracts) with Connect for Node, CALLS calls per service and protocol, each protocol
// over ONE connection (one HTTP/2 session, or one keep-alive HTTP/1.1 socket), and which
// replica answered each (the balancer's x-acme-replica header). Prints one JSON line per
// service and protocol: {service, protocol, connection, calls, failed, replicas: {name: calls}}.
// The shell asserts on them; this only calls and counts.
//   node scale-spread.mjs CALLS   with AUTH_URL, AUTH_REST_URL, PERSON_URL, PERSON_REST_URL,
//   WEB_PROXY_URL, ADMIN_USERNAME, ADMIN_PASSWORD in the environment.
import { Agent, request } from "node:http";
import { randomUUID } from "node:crypto";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { PersonService } from "@acme/contracts/acme/person/v1/person_service_pb";

const calls = Number(process.argv[2] ?? 30);
const env = (name) => process.env[name] ?? (() => { throw new Error(`${name} is not set`); })();

// One HTTP/1.1 socket for a whole protocol: keep-alive, at most one connection.
const oneSocket = () => new Agent({ keepAlive: true, maxSockets: 1 });
const transports = (baseUrl) => ({
  grpc: { connection: "one HTTP/2 session", transport: createGrpcTransport({ baseUrl, httpVersion: "2" }) },
  "grpc-web": { connection: "one HTTP/2 session", transport: createGrpcWebTransport({ baseUrl, httpVersion: "2" }) },
  connect: { connection: "one HTTP/1.1 socket", transport: createConnectTransport({ baseUrl, httpVersion: "1.1", nodeOptions: { agent: oneSocket() } }) },
});

/** Runs `call` CALLS times, one after the other, counting the replica each answer names. */
async function spread(service, protocol, connection, call) {
  const replicas = {};
  let failed = 0;
  for (let i = 0; i < calls; i++) {
    let replica = "(none)";
    try {
      await call((headers) => { replica = headers.get("x-acme-replica") ?? "(none)"; });
      replicas[replica] = (replicas[replica] ?? 0) + 1;
    } catch (err) {
      failed++;
      if (failed === 1) console.error(`${service} ${protocol}: ${err}`);
    }
  }
  console.log(JSON.stringify({ service, protocol, connection, calls, failed, replicas }));
}

/** One REST call on the given agent; resolves to {status, headers, body}. */
function rest(url, method, agent, headers, body) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const admin = { username: env("ADMIN_USERNAME"), password: env("ADMIN_PASSWORD") };
const login = createClient(AuthService, createGrpcTransport({ baseUrl: env("AUTH_URL"), httpVersion: "2" }));
const { token } = await login.login(admin);
const authorization = { authorization: `Bearer ${token}` };

// auth-node: gRPC, gRPC-Web and Connect on its RPC port, then its REST twin.
for (const [protocol, { connection, transport }] of Object.entries(transports(env("AUTH_URL")))) {
  const client = createClient(AuthService, transport);
  await spread("auth-node", protocol, connection, (onHeader) => client.validateToken({ token }, { onHeader }));
}
{
  const agent = oneSocket();
  await spread("auth-node", "rest", "one HTTP/1.1 socket", async (onHeader) => {
    const answer = await rest(`${env("AUTH_REST_URL")}/api/validate`, "POST", agent, { "content-type": "application/json" }, JSON.stringify({ token }));
    if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${answer.body}`);
    onHeader(new Headers({ "x-acme-replica": String(answer.headers["x-acme-replica"] ?? "(none)") }));
  });
}

// person-spring: a person to read, stored once; gRPC on its port, gRPC-Web and Connect through
// web-proxy (person-spring speaks gRPC only), then its REST twin.
const grpcPerson = createClient(PersonService, createGrpcTransport({ baseUrl: env("PERSON_URL"), httpVersion: "2" }));
const { person } = await grpcPerson.registerPerson(
  { requestId: randomUUID(), person: { name: `Spread ${Date.now()}`, age: 30 } }, { headers: authorization });
const web = transports(env("WEB_PROXY_URL"));
const personTransports = { grpc: transports(env("PERSON_URL")).grpc, "grpc-web": web["grpc-web"], connect: web.connect };
for (const [protocol, { connection, transport }] of Object.entries(personTransports)) {
  const client = createClient(PersonService, transport);
  await spread("person-spring", protocol, connection, (onHeader) => client.getPerson({ id: person.id }, { headers: authorization, onHeader }));
}
{
  const agent = oneSocket();
  await spread("person-spring", "rest", "one HTTP/1.1 socket", async (onHeader) => {
    const answer = await rest(`${env("PERSON_REST_URL")}/api/people/${person.id}`, "GET", agent, authorization);
    if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${answer.body}`);
    onHeader(new Headers({ "x-acme-replica": String(answer.headers["x-acme-replica"] ?? "(none)") }));
  });
}
