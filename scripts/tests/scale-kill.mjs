// scale-kill.mjs — run by tests/scale-kill.sh against `make up SCALE=N` while it kills replicas:
// the soak's traffic mix (benchmarks/soak.py: GetPerson, RegisterPerson and ValidateToken at
// 6 : 1 : 6) from WORKERS clients at a time for SECONDS — each registers a person, then reads
// one of its people and checks its token six times — through the balancer, with the TypeScript
// SDK (Connect for Node, gRPC, one HTTP/2 session per service) and the SDK's own retry policy:
// `retryInterceptor()` and `refusedStreamInterceptor()` from @acme/contracts/retry, as the SDK's
// README tells a client to use them. The policy retries GetPerson and ValidateToken (idempotent,
// named in gen/service-config.json) and RegisterPerson (it carries a request_id, so a retry
// stores the person once) on UNAVAILABLE and INTERNAL (a refused or a cut stream); this client
// retries nothing itself, and a call the policy gives up on ends the run. Between the two
// interceptors a third records every attempt, so the shell sees each failure the policy hid.
// The same traffic runs first until WARMUP calls are answered, its attempts marked warmUp
// (replicas just started have cold JITs and no connections yet); then it touches READY_FILE,
// from which the shell times its kills. At the end it lists the people it registered (the
// warm-up's too). Prints one JSON object: every attempt's outcome with its time, and how many
// times each acknowledged person is stored. The shell judges; this only calls and counts.
//   node scale-kill.mjs WORKERS SECONDS WARMUP
//     with AUTH_URL, PERSON_URL, ADMIN_USERNAME, ADMIN_PASSWORD, READY_FILE
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { Code, ConnectError, createClient, createContextKey, createContextValues } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { PersonService } from "@acme/contracts/acme/person/v1/person_service_pb";
import { configuredPolicy, refusedStreamInterceptor, retryInterceptor } from "@acme/contracts/retry";

const [workers, seconds, warmup] = [Number(process.argv[2] ?? 4), Number(process.argv[3] ?? 20), Number(process.argv[4] ?? 1000)];
const env = (name) => process.env[name] ?? (() => { throw new Error(`${name} is not set`); })();

const calls = []; // one per attempt: {rpc, start, end, code, message?}
let warmingUp = true;
// A logical call's attempt count, set by the recorder (the policy sends the same request again).
const attemptsKey = createContextKey(undefined, { description: "attempts of one call" });
/** Records each attempt that reaches the network, with the code the policy sees. */
const recorder = (next) => async (req) => {
  const start = Date.now();
  const counter = req.contextValues.get(attemptsKey);
  if (counter) counter.n++;
  try {
    const res = await next(req);
    calls.push({ rpc: req.method.name, start, end: Date.now(), code: "ok", warmUp: warmingUp });
    return res;
  } catch (err) {
    const e = ConnectError.from(err);
    calls.push({ rpc: req.method.name, start, end: Date.now(), code: Code[e.code], message: e.rawMessage.slice(0, 120), warmUp: warmingUp });
    throw err;
  }
};
const transport = (baseUrl) =>
  createGrpcTransport({ baseUrl, httpVersion: "2", interceptors: [retryInterceptor(), recorder, refusedStreamInterceptor()] });
const auth = createClient(AuthService, transport(env("AUTH_URL")));
const people = createClient(PersonService, transport(env("PERSON_URL")));
const { token } = await auth.login({ username: env("ADMIN_USERNAME"), password: env("ADMIN_PASSWORD") });
calls.length = 0; // the login is not traffic
const headers = { authorization: `Bearer ${token}` };

const tag = `kill-${Date.now()}`;
const acknowledged = new Map(); // name -> {requestId, id, attempts}
let fatal = null;
let answered = 0; // logical calls acknowledged
let reads = 0, readsAfterRetry = 0;

/** Runs one logical call through the policy; returns its attempt count, or ends the run. */
async function logical(what, run) {
  const counter = { n: 0 };
  try {
    const result = await run({ contextValues: createContextValues().set(attemptsKey, counter) });
    answered++;
    return { result, attempts: counter.n };
  } catch (err) {
    const e = ConnectError.from(err);
    fatal ??= `${what}: ${Code[e.code]} ${e.rawMessage} after ${counter.n} attempt(s) of the SDK's retry policy`;
    return undefined;
  }
}

/** One client's loop: until `done()` says the phase is over, or a call is given up on. */
async function worker(w, phase, done) {
  const mine = []; // ids of the people this client registered
  for (let n = 0; !done() && !fatal; n++) {
    const name = `${tag} ${phase}${w}-${n}`, requestId = randomUUID();
    const reg = await logical(`RegisterPerson ${name}`, (options) =>
      people.registerPerson({ requestId, person: { name, age: 40 } }, { ...options, headers, timeoutMs: 10_000 }));
    if (!reg) return;
    acknowledged.set(name, { requestId, id: reg.result.person.id, attempts: reg.attempts, warmUp: warmingUp });
    mine.push(reg.result.person.id);
    for (let k = 0; k < 6; k++) {
      // Any replica must find a person any replica acknowledged: NOT_FOUND ends the run.
      const id = mine[Math.floor(Math.random() * mine.length)];
      const read = await logical(`GetPerson ${id}`, (options) => people.getPerson({ id }, { ...options, headers, timeoutMs: 10_000 }));
      if (!read) return;
      const check = await logical("ValidateToken", (options) => auth.validateToken({ token }, { ...options, timeoutMs: 10_000 }));
      if (!check) return;
      if (!warmingUp) {
        reads += 2;
        readsAfterRetry += (read.attempts > 1) + (check.attempts > 1);
      }
    }
  }
}
await Promise.all(Array.from({ length: workers }, (_, w) => worker(w, "warm-up ", () => answered >= warmup)));
warmingUp = false;
writeFileSync(env("READY_FILE"), "");
const deadline = Date.now() + seconds * 1000;
await Promise.all(Array.from({ length: workers }, (_, w) => worker(w, "", () => Date.now() >= deadline)));
const traffic = calls.splice(0);

// What is stored: every person of this run, listed once the traffic is over.
const stored = new Map();
for (let pageToken = "", more = true; more; ) {
  more = false;
  for await (const res of people.listPeople({ nameContains: tag, pageToken, limit: 10_000 }, { headers, timeoutMs: 60_000 })) {
    if (res.person) stored.set(res.person.name, (stored.get(res.person.name) ?? 0) + 1);
    if (res.nextPageToken) [pageToken, more] = [res.nextPageToken, true];
  }
}
const measured = [...acknowledged.values()].filter((a) => !a.warmUp);
// The codes the policy retries (gen/service-config.json, as Connect names them): the shell's oracle.
const retryable = [...configuredPolicy(AuthService.typeName, "ValidateToken").retryableCodes].map((code) => Code[code]);
console.log(JSON.stringify({
  tag, fatal, calls: traffic, retryable,
  acknowledged: measured.length,
  acknowledgedInWarmUp: acknowledged.size - measured.length,
  retried: measured.filter((a) => a.attempts > 1).length,
  maxAttempts: Math.max(0, ...measured.map((a) => a.attempts)),
  reads, readsAfterRetry,
  lost: [...acknowledged.keys()].filter((name) => !stored.has(name)),
  duplicated: [...stored.entries()].filter(([, count]) => count > 1).map(([name]) => name),
  unacknowledgedStored: [...stored.keys()].filter((name) => !acknowledged.has(name)),
}));
