// scale-kill.mjs — run by tests/scale-kill.sh against `make up SCALE=N` while it kills replicas:
// the traffic of a client that registers people and checks its token, WORKERS at a time for
// SECONDS, through the balancer, with the TypeScript SDK (Connect for Node, gRPC, one HTTP/2
// session per service). Every RegisterPerson carries a request_id; a call that fails with a
// status that leaves its outcome unknown (UNAVAILABLE, or INTERNAL/UNKNOWN from a cut stream) is
// sent again with the SAME request_id until it is acknowledged, as the service's contract
// allows. At the end it lists the people it registered. Prints one JSON object: every call's
// outcome with its time, and how many times each acknowledged person is stored. The shell
// judges; this only calls and counts.
//   node scale-kill.mjs WORKERS SECONDS   with AUTH_URL, PERSON_URL, ADMIN_USERNAME, ADMIN_PASSWORD
import { randomUUID } from "node:crypto";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { PersonService } from "@acme/contracts/acme/person/v1/person_service_pb";

const [workers, seconds] = [Number(process.argv[2] ?? 4), Number(process.argv[3] ?? 20)];
const env = (name) => process.env[name] ?? (() => { throw new Error(`${name} is not set`); })();
const auth = createClient(AuthService, createGrpcTransport({ baseUrl: env("AUTH_URL"), httpVersion: "2" }));
const people = createClient(PersonService, createGrpcTransport({ baseUrl: env("PERSON_URL"), httpVersion: "2" }));
const { token } = await auth.login({ username: env("ADMIN_USERNAME"), password: env("ADMIN_PASSWORD") });
const headers = { authorization: `Bearer ${token}` };
// Statuses after which the client cannot know whether the call took effect: sent again.
const unknownOutcome = new Set([Code.Unavailable, Code.Internal, Code.Unknown, Code.DeadlineExceeded]);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const tag = `kill-${Date.now()}`;
const calls = []; // {rpc, start, end, code}
const acknowledged = new Map(); // name -> {requestId, id, attempts}
let fatal = null;

/** One call, recorded; returns the error or undefined. */
async function call(rpc, run) {
  const start = Date.now();
  try {
    await run();
    calls.push({ rpc, start, end: Date.now(), code: "ok" });
  } catch (err) {
    const e = ConnectError.from(err);
    calls.push({ rpc, start, end: Date.now(), code: Code[e.code], message: e.rawMessage.slice(0, 120) });
    return e;
  }
}

async function worker(w) {
  const deadline = Date.now() + seconds * 1000;
  for (let n = 0; Date.now() < deadline && !fatal; n++) {
    const name = `${tag} ${w}-${n}`, requestId = randomUUID();
    let result;
    for (let attempt = 1; ; attempt++) {
      const err = await call("RegisterPerson", async () => {
        result = await people.registerPerson({ requestId, person: { name, age: 40 } }, { headers, timeoutMs: 10_000 });
      });
      if (!err) { acknowledged.set(name, { requestId, id: result.person.id, attempts: attempt }); break; }
      if (!unknownOutcome.has(err.code) || attempt >= 30) { fatal = `${name}: ${Code[err.code]} ${err.rawMessage} (attempt ${attempt})`; return; }
      await sleep(200);
    }
    await call("ValidateToken", () => auth.validateToken({ token }, { timeoutMs: 10_000 }));
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
