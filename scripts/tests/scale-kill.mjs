// scale-kill.mjs — run by tests/scale-kill.sh against `make up SCALE=N` while it kills replicas:
// the traffic of a client that registers people and checks its token, WORKERS at a time for
// SECONDS, through the balancer, with the TypeScript SDK (Connect for Node, gRPC, one HTTP/2
// session per service). Every RegisterPerson carries a request_id. Calls are retried by the
// SDK's retry policy (@acme/contracts/retry: gen/service-config.json's policy, UNAVAILABLE only,
// RegisterPerson because it carries a request_id), not by a loop of this client's: a call
// whose retries all fail ends the run. Every attempt is recorded, by an interceptor between the
// retry and the transport, with the code it got. At the end it lists the people it registered.
// Prints one JSON object: every attempt's outcome with its time, and how many times each
// acknowledged person is stored. The shell judges; this only calls and counts.
//   node scale-kill.mjs WORKERS SECONDS   with AUTH_URL, PERSON_URL, ADMIN_USERNAME, ADMIN_PASSWORD
import { randomUUID } from "node:crypto";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { PersonService } from "@acme/contracts/acme/person/v1/person_service_pb";
import { refusedStreamInterceptor, retryInterceptor } from "@acme/contracts/retry";

const [workers, seconds] = [Number(process.argv[2] ?? 4), Number(process.argv[3] ?? 20)];
const env = (name) => process.env[name] ?? (() => { throw new Error(`${name} is not set`); })();

const calls = []; // every attempt: {rpc, start, end, code, message?}
const attempts = new Map(); // request_id -> attempts of its RegisterPerson
/** Records every attempt the retry interceptor makes, with the code the client sees. */
const record = (next) => async (req) => {
  if (req.stream) return next(req); // the listing at the end is not part of the traffic
  const start = Date.now();
  if (req.method.name === "RegisterPerson") attempts.set(req.message.requestId, (attempts.get(req.message.requestId) ?? 0) + 1);
  try {
    const res = await next(req);
    calls.push({ rpc: req.method.name, start, end: Date.now(), code: "ok" });
    return res;
  } catch (err) {
    const e = ConnectError.from(err);
    calls.push({ rpc: req.method.name, start, end: Date.now(), code: Code[e.code], message: e.rawMessage.slice(0, 120) });
    throw err;
  }
};
const interceptors = [retryInterceptor(), record, refusedStreamInterceptor()];
const auth = createClient(AuthService, createGrpcTransport({ baseUrl: env("AUTH_URL"), httpVersion: "2", interceptors }));
const people = createClient(PersonService, createGrpcTransport({ baseUrl: env("PERSON_URL"), httpVersion: "2", interceptors }));
const { token } = await auth.login({ username: env("ADMIN_USERNAME"), password: env("ADMIN_PASSWORD") });
calls.length = 0; // the login is not part of the traffic
const headers = { authorization: `Bearer ${token}` };

const tag = `kill-${Date.now()}`;
const acknowledged = new Map(); // name -> {requestId, id, attempts}
let fatal = null;

async function worker(w) {
  const deadline = Date.now() + seconds * 1000;
  for (let n = 0; Date.now() < deadline && !fatal; n++) {
    const name = `${tag} ${w}-${n}`, requestId = randomUUID();
    try {
      const { person } = await people.registerPerson({ requestId, person: { name, age: 40 } }, { headers, timeoutMs: 10_000 });
      acknowledged.set(name, { requestId, id: person.id, attempts: attempts.get(requestId) });
      await auth.validateToken({ token }, { timeoutMs: 10_000 });
    } catch (err) {
      const e = ConnectError.from(err);
      fatal ??= `${name}: ${Code[e.code]} ${e.rawMessage} (after the retry policy's attempts)`;
    }
  }
}
await Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));

// What is stored: every person of this run, listed once the traffic is over.
const stored = new Map();
for (let pageToken = "", more = true; more; ) {
  more = false;
  for await (const res of people.listPeople({ nameContains: tag, pageToken, limit: 10_000 }, { headers, timeoutMs: 60_000 })) {
    if (res.person) stored.set(res.person.name, (stored.get(res.person.name) ?? 0) + 1);
    if (res.nextPageToken) [pageToken, more] = [res.nextPageToken, true];
  }
}
console.log(JSON.stringify({
  tag, fatal, calls,
  acknowledged: acknowledged.size,
  retried: [...acknowledged.values()].filter((a) => a.attempts > 1).length,
  lost: [...acknowledged.keys()].filter((name) => !stored.has(name)),
  duplicated: [...stored.entries()].filter(([, count]) => count > 1).map(([name]) => name),
  unacknowledgedStored: [...stored.keys()].filter((name) => !acknowledged.has(name)),
}));
