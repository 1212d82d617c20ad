// The person-spring features about calls that must fail: authentication, deadlines,
// cancellation and validation errors with their details.
import { setTimeout as sleep } from "node:timers/promises";
import { Code, ConnectError } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { RegisterPeopleRequestSchema } from "@acme/contracts/acme/person/v1/person_service_pb";
import { codeName, expect, fail, ok, rejects } from "../check.js";
import { expectRuleId, expectViolations } from "../status.js";
import { bearer, createUserAndLogin } from "../auth/session.js";
import { type PersonSession, list, uuid } from "./session.js";
import { RequestQueue } from "./queue.js";

type PeopleReq = MessageInitShape<typeof RegisterPeopleRequestSchema>;

export async function authMetadata(s: PersonSession): Promise<void> {
  const run = s.env.runId;
  await rejects(s.client.getPerson({ id: uuid() }), Code.Unauthenticated, "GetPerson without authorization");
  await rejects(s.client.getPerson({ id: uuid() }, bearer("garbage")), Code.Unauthenticated, "GetPerson with Bearer garbage");
  await rejects(s.client.getPerson({ id: uuid() }, await s.authed()), Code.NotFound, "GetPerson(random UUID) with the admin token");
  const admin = await s.token();
  const username = `${run}-user`;
  const userToken = await createUserAndLogin(s.auth, admin, username, "compat-user-password-1");
  await ok(s.client.registerPerson({ requestId: uuid(), person: { name: `${run} am`, age: 5 } }, bearer(userToken)),
    `RegisterPerson with ${username}'s token`);
  await ok(s.auth.disableUser({ username }, bearer(admin)), `DisableUser(${username})`);
  await rejects(s.client.registerPerson({ requestId: uuid(), person: { name: `${run} am2`, age: 5 } }, bearer(userToken)),
    Code.Unauthenticated, `RegisterPerson with the disabled ${username}'s token`);
}

/** Fails unless `call` settles within `ms`: a driver must never hang on a feature. */
async function within<T>(call: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not seen within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([call, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function expectNoneListed(s: PersonSession, name: string, what: string): Promise<void> {
  const found = await list(s, { nameContains: name });
  expect(found.length === 0, `${what}: ListPeople(${JSON.stringify(name)}) found ${found.length} people, want none`);
}

export async function deadline(s: PersonSession): Promise<void> {
  const name = `${s.env.runId} dl`;
  const dl: PeopleReq = { requestId: uuid(), person: { name, age: 1 } };
  const queue = new RequestQueue<PeopleReq>();
  queue.push(dl); // and never end(): no half-close
  const authed = await s.authed(); // log in first: the 5 s window is the call's alone
  const started = performance.now();
  try {
    await within(
      rejects(s.client.registerPeople(queue, { ...authed, timeoutMs: 500 }), Code.DeadlineExceeded,
        "RegisterPeople with a 500 ms deadline, never half-closed"),
      5000, "DEADLINE_EXCEEDED");
  } catch (err) {
    if (err instanceof Error && err.message.includes("not seen within")) fail(err.message);
    throw err;
  }
  const elapsed = Math.round(performance.now() - started);
  expect(elapsed >= 450, `DEADLINE_EXCEEDED after ${elapsed} ms, before the 500 ms deadline`);
  // A client that saw an error cannot know whether the stream was stored: Connect for Node
  // aborts by half-closing before it resets (evidence/abort-frames.mjs shows the frames), so
  // the server may well have committed it. The contract makes repeating the stream with the
  // same request_id safe.
  const again = new RequestQueue<PeopleReq>();
  again.push(dl);
  again.end();
  const stored = await ok(s.client.registerPeople(again, authed), "the repeated RegisterPeople stream");
  expect(stored.count === 1n, `the repeated stream stored ${stored.count} people, want 1`);
  const found = await list(s, { nameContains: name });
  expect(found.length === 1, `after the deadline and the repeat ListPeople(${JSON.stringify(name)}) found ${found.length} people, want 1`);
  expect(found[0]?.id === stored.ids[0], `the listed person ${found[0]?.id} is not the one the repeat answered (${stored.ids[0]})`);
}

export async function cancelMidStream(s: PersonSession): Promise<void> {
  const name = `${s.env.runId} cancel`;
  const queue = new RequestQueue<PeopleReq>();
  for (let i = 0; i < 200; i++) queue.push({ person: { name: `${name} ${i}`, age: i % 150 } });
  const abort = new AbortController();
  const call = s.client.registerPeople(queue, { ...(await s.authed()), signal: abort.signal });
  // Let the 200 messages reach the server before cancelling; no end(), so no half-close.
  await sleep(500);
  abort.abort();
  let outcome: unknown = undefined;
  try {
    await within(call, 5000, "CANCELLED");
  } catch (err) {
    outcome = err;
  }
  if (outcome === undefined) fail("RegisterPeople cancelled mid-stream: expected CANCELLED, got OK");
  if (outcome instanceof Error && outcome.message.includes("not seen within")) fail(outcome.message);
  {
    const e = ConnectError.from(outcome);
    expect(e.code === Code.Canceled, `RegisterPeople cancelled mid-stream: expected CANCELLED, got ${codeName(e.code)} (${e.rawMessage})`);
  }
  // No partial batch, not even a moment later: poll every 200 ms for 2 s.
  for (let t = 0; t <= 2000; t += 200) {
    await expectNoneListed(s, name, `${t} ms after the cancel`);
    await sleep(200);
  }
}

export async function errorDetails(s: PersonSession): Promise<void> {
  const run = s.env.runId;
  const invalid = await rejects(s.client.registerPerson({ requestId: uuid(), person: { name: "", age: 200 } }, await s.authed()),
    Code.InvalidArgument, "RegisterPerson(name \"\", age 200)");
  expectViolations(invalid, ["person.name/string.min_len", "person.age/int32.gte_lte"], "RegisterPerson(name \"\", age 200)");
  const withId = await rejects(
    s.client.registerPerson({ requestId: uuid(), person: { id: uuid(), name: `${run} ed`, age: 1 } }, await s.authed()),
    Code.InvalidArgument, "RegisterPerson with id set");
  expectRuleId(withId, "person.server_fields_unset", "RegisterPerson with id set");
  const badId = await rejects(s.client.getPerson({ id: "not-a-uuid" }, await s.authed()), Code.InvalidArgument, "GetPerson(not-a-uuid)");
  expectViolations(badId, ["id/string.uuid"], "GetPerson(not-a-uuid)");
  await rejects(s.client.getPerson({ id: uuid() }, await s.authed()), Code.NotFound, "GetPerson(random UUID)");
  const requestId = uuid();
  await ok(s.client.registerPerson({ requestId, person: { name: `${run} ed one`, age: 1 } }, await s.authed()), "RegisterPerson(ed one)");
  await rejects(s.client.registerPerson({ requestId, person: { name: `${run} ed two`, age: 2 } }, await s.authed()),
    Code.AlreadyExists, "RegisterPerson reusing a request_id for another person");
}
