// The four call shapes of PersonService: unary, client-stream, server-stream and bidi
// (compatibility-tests/README.md, "person-spring features").
import { clone, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { PersonSchema } from "@acme/contracts/acme/person/v1/person_pb";
import { type SyncPeopleRequestSchema, type SyncPeopleResponse } from "@acme/contracts/acme/person/v1/person_service_pb";
import { expect, expectMessage, fail, ok } from "../check.js";
import { expectViolationList, violationKey } from "../status.js";
import { type PersonSession, get, list, person, register, uuid } from "./session.js";
import { RequestQueue } from "./queue.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function unary(s: PersonSession): Promise<void> {
  const sent = person({ name: `${s.env.runId} unary`, age: 42, hobbies: ["chess", "go"], address: { city: "Zurich", zipCode: "8001" } });
  const request = { requestId: uuid(), person: sent };
  const res = await ok(s.client.registerPerson(request, await s.authed()), "RegisterPerson");
  const stored = res.person ?? fail("RegisterPerson: response without a person");
  expect(UUID.test(stored.id), `RegisterPerson: id ${JSON.stringify(stored.id)} is not a UUID`);
  expect(stored.createdAt !== undefined, "RegisterPerson: created_at unset");
  // Every field but the two the server assigns must be exactly what was sent.
  const rest = clone(PersonSchema, stored);
  rest.id = "";
  rest.createdAt = undefined;
  expectMessage(PersonSchema, rest, sent, "RegisterPerson: the stored person (without id, created_at)");
  expectMessage(PersonSchema, await get(s, stored.id), stored, "GetPerson vs RegisterPerson's response");
  const again = await ok(s.client.registerPerson(request, await s.authed()), "RegisterPerson again (same request_id)");
  expect(again.person?.id === stored.id, `RegisterPerson again: id ${again.person?.id}, want ${stored.id} (not idempotent)`);
}

export async function clientStream(s: PersonSession): Promise<void> {
  const run = s.env.runId;
  async function* people() {
    for (let i = 0; i < 25; i++) yield { person: person({ name: `${run} cs ${i}`, age: i }) };
  }
  const res = await ok(s.client.registerPeople(people(), await s.authed()), "RegisterPeople(25)");
  // count is an int64: a bigint in protobuf-es.
  expect(res.count === 25n, `RegisterPeople: count ${res.count}, want 25`);
  expect(!res.idsOmitted, "RegisterPeople: ids_omitted is true");
  expect(res.ids.length === 25 && new Set(res.ids).size === 25, `RegisterPeople: ${res.ids.length} ids, ${new Set(res.ids).size} distinct, want 25`);
  const seventh = await get(s, res.ids[7]);
  expect(seventh.name === `${run} cs 7`, `GetPerson(ids[7]): name ${JSON.stringify(seventh.name)}, want "${run} cs 7"`);
}

export async function serverStream(s: PersonSession): Promise<void> {
  const run = s.env.runId;
  const ids = new Set<string>();
  for (let i = 0; i < 5; i++) ids.add((await register(s, person({ name: `${run} ss ${i}`, age: 20 + i }))).id);
  const first = await list(s, { nameContains: `${run} ss`, limit: 3 });
  const second = await list(s, { nameContains: `${run} ss`, limit: 3, page: 1 });
  expect(first.length === 3, `ListPeople page 0 (limit 3): ${first.length} people, want 3`);
  expect(second.length === 2, `ListPeople page 1 (limit 3): ${second.length} people, want 2`);
  const got = new Set([...first, ...second].map((p) => p.id));
  expect(got.size === 5 && [...ids].every((id) => got.has(id)),
    `ListPeople pages 0 and 1: ids [${[...got].join(", ")}], want the 5 registered [${[...ids].join(", ")}]`);
  for (const [page, people] of [[0, first], [1, second]] as const) {
    for (let i = 1; i < people.length; i++) {
      const a = people[i - 1].createdAt, b = people[i].createdAt;
      expect(a !== undefined && b !== undefined, `ListPeople page ${page}: a person without created_at`);
      expect(timestampDate(a) <= timestampDate(b) && !(a.seconds === b.seconds && a.nanos > b.nanos),
        `ListPeople page ${page}: created_at decreases at position ${i}`);
    }
  }
}

export async function bidi(s: PersonSession): Promise<void> {
  const run = s.env.runId;
  type Req = MessageInitShape<typeof SyncPeopleRequestSchema>;
  const a: Req = { requestId: uuid(), person: { name: `${run} bidi a`, age: 30 } };
  const b: Req = { requestId: uuid(), person: { name: `${run} bidi b`, age: 200 } };
  const c: Req = { requestId: uuid(), person: { name: `${run} bidi c`, age: 31 } };

  // One message out, its answer in, then the next: a strict ping-pong over one stream.
  const queue = new RequestQueue<Req>();
  const answers = s.client.syncPeople(queue, await s.authed())[Symbol.asyncIterator]();
  const next = async (what: string): Promise<SyncPeopleResponse> => {
    const r = await ok(answers.next(), `SyncPeople: reading the answer to ${what}`);
    if (r.done) fail(`SyncPeople: the stream ended before the answer to ${what}`);
    return r.value;
  };
  const exchange = async (req: Req, what: string) => {
    queue.push(req);
    const res = await next(what);
    expect(res.requestId === req.requestId, `SyncPeople ${what}: request_id ${res.requestId}, want ${req.requestId}`);
    return res;
  };
  const ra = await exchange(a, "A");
  expect(ra.result.case === "id" && ra.result.value !== "", `SyncPeople A: result ${ra.result.case}, want an id`);
  const rb = await exchange(b, "B (age 200)");
  if (rb.result.case !== "error") fail(`SyncPeople B: result ${rb.result.case}, want an error`);
  expect(rb.result.value.code === 3, `SyncPeople B: error code ${rb.result.value.code}, want 3`);
  expectViolationList(rb.result.value.violations, ["person.age/int32.gte_lte"], "SyncPeople B");
  const rc = await exchange(c, "C");
  expect(rc.result.case === "id" && rc.result.value !== "", `SyncPeople C: result ${rc.result.case}, want an id`);
  queue.end();
  const end = await ok(answers.next(), "SyncPeople: after the half-close");
  expect(end.done === true, "SyncPeople: an answer after the half-close, want the stream to end OK");

  // A second stream resending A's request_id and person gets A's id back.
  const again = new RequestQueue<Req>();
  again.push(a);
  again.end();
  const replies: SyncPeopleResponse[] = [];
  await ok((async () => {
    for await (const r of s.client.syncPeople(again, await s.authed())) replies.push(r);
  })(), "SyncPeople (second stream)");
  expect(replies.length === 1, `SyncPeople second stream: ${replies.length} answers, want 1`);
  const r = replies[0];
  expect(r.requestId === a.requestId, `SyncPeople second stream: request_id ${r.requestId}, want ${a.requestId}`);
  expect(r.result.case === "id" && r.result.value === ra.result.value,
    `SyncPeople second stream: ${r.result.case} ${r.result.case === "error" ? r.result.value.violations.map(violationKey).join(",") : r.result.value}, want A's id ${ra.result.value}`);
}
