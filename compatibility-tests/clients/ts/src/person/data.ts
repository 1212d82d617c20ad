// The person-spring features about the data itself: size, Unicode, field presence, and
// fields of a newer schema the registry does not know.
import { clone, create, equals, fromBinary, type Message, toBinary, toJsonString } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { type Person, PersonSchema } from "@acme/contracts/acme/person/v1/person_pb";
import { RegisterPersonRequestSchema } from "@acme/contracts/acme/person/v1/person_service_pb";
import { expect, expectMessage, fail, ok, rejects } from "../check.js";
import { expectViolations } from "../status.js";
import { nextClient, nextMessage } from "../next-schema.js";
import { transportFor } from "../transport.js";
import { type PersonSession, get, list, person, register, uuid } from "./session.js";

/** The person without the two fields the server assigns, to compare with what was sent. */
function withoutServerFields(p: Person): Person {
  const c = clone(PersonSchema, p);
  c.id = "";
  c.createdAt = undefined;
  return c;
}

function sameBytes(a: Person, b: Person): boolean {
  return Buffer.from(toBinary(PersonSchema, a)).equals(Buffer.from(toBinary(PersonSchema, b)));
}

export async function largeMessage(s: PersonSession): Promise<void> {
  const name = `${s.env.runId} large`;
  // 500 distinct hobbies of 2,048 characters: over 1 MB encoded.
  const hobbies = Array.from({ length: 500 }, (_, i) => `${i}:`.padEnd(2048, String.fromCharCode(97 + (i % 26))));
  const sent = person({ name, age: 50, hobbies });
  expect(toBinary(PersonSchema, sent).length > 1_000_000, "the large person is not over 1 MB encoded");
  const stored = await register(s, sent);
  expectMessage(PersonSchema, withoutServerFields(stored), sent, "RegisterPerson(large): stored person");
  const got = await get(s, stored.id);
  expect(sameBytes(got, stored), "GetPerson(large) differs from RegisterPerson's response, byte for byte");
  const listed = await list(s, { nameContains: name });
  expect(listed.length === 1, `ListPeople(${name}): ${listed.length} people, want 1`);
  expect(sameBytes(listed[0], stored), "ListPeople(large) differs from RegisterPerson's response, byte for byte");
}

const codePoints = (text: string) => [...text].map((c) => c.codePointAt(0)!.toString(16)).join(" ");

function expectSameText(got: string, want: string, what: string): void {
  expect(got === want, `${what}: code points [${codePoints(got)}], want [${codePoints(want)}]`);
}

export async function unicode(s: PersonSession): Promise<void> {
  // "e\u0301" is an e with a combining acute accent: two code points that must stay two.
  const sent = person({
    name: `${s.env.runId} Zoë Ødegård 李雷 👩‍💻 مرحبا e\u0301 🚀`,
    hobbies: ["日本語", "🎸"],
    address: { city: "Zürich", zipCode: "8001" },
    age: 33,
  });
  const stored = await register(s, sent);
  const listed = await list(s, { nameContains: `${s.env.runId} Zoë` });
  expect(listed.length === 1, `ListPeople(unicode): ${listed.length} people, want 1`);
  for (const [what, p] of [["RegisterPerson", stored], ["GetPerson", await get(s, stored.id)], ["ListPeople", listed[0]]] as const) {
    expectSameText(p.name, sent.name, `${what}: name`);
    expect(p.hobbies.length === 2, `${what}: ${p.hobbies.length} hobbies, want 2`);
    p.hobbies.forEach((h, i) => expectSameText(h, sent.hobbies[i], `${what}: hobby ${i}`));
    expectSameText(p.address?.city ?? "", "Zürich", `${what}: city`);
  }
  // max_len counts code points: 200 rockets (400 UTF-16 units, 800 bytes) fit, 201 do not.
  const rockets = "🚀".repeat(200);
  const accepted = await register(s, person({ name: rockets, age: 1 }), "RegisterPerson(200 × 🚀)");
  expectSameText((await get(s, accepted.id)).name, rockets, "GetPerson(200 × 🚀): name");
  const refused = await rejects(
    s.client.registerPerson({ requestId: uuid(), person: { name: rockets + "🚀", age: 1 } }, await s.authed()),
    Code.InvalidArgument, "RegisterPerson(201 × 🚀)");
  expectViolations(refused, ["person.name/string.max_len"], "RegisterPerson(201 × 🚀)");
}

export async function fieldPresence(s: PersonSession): Promise<void> {
  const run = s.env.runId;
  const noAddress = await register(s, person({ name: `${run} presence none`, age: 7 }));
  expect(noAddress.address === undefined, "RegisterPerson without address: the response has one");
  expect((await get(s, noAddress.id)).address === undefined, "GetPerson of a person stored without address: has one");

  // An empty Address{} is present on the wire (field 5, length 0), so its city is validated.
  const empty = create(RegisterPersonRequestSchema, { requestId: uuid(), person: { name: `${run} presence empty`, address: {} } });
  expect(empty.person?.address !== undefined, "the request lost its empty address before sending");
  const err = await rejects(s.client.registerPerson(empty, await s.authed()), Code.InvalidArgument, "RegisterPerson(address {})");
  expectViolations(err, ["person.address.city/string.min_len"], "RegisterPerson(address {})");

  const zero = await register(s, person({ name: `${run} fp`, age: 0 }));
  const thirty = await register(s, person({ name: `${run} fp`, age: 30 }));
  const onlyZero = await list(s, { nameContains: `${run} fp`, maxAge: 0 });
  expect(onlyZero.length === 1 && onlyZero[0].id === zero.id,
    `ListPeople(max_age 0): ids [${onlyZero.map((p) => p.id).join(", ")}], want only the 0-year-old ${zero.id}`);
  const both = await list(s, { nameContains: `${run} fp` });
  const ids = new Set(both.map((p) => p.id));
  expect(both.length === 2 && ids.has(zero.id) && ids.has(thirty.id),
    `ListPeople(no max_age): ids [${[...ids].join(", ")}], want ${zero.id} and ${thirty.id}`);
}

type Dynamic = Message & Record<string, unknown>;

export async function unknownFields(s: PersonSession): Promise<void> {
  const path = s.env.nextDescriptors;
  const nextPerson = nextMessage(path, "acme.person.v1.Person");
  const nextRequest = nextMessage(path, "acme.person.v1.RegisterPersonRequest");
  const next = nextClient(path, "acme.person.v1.PersonService", transportFor(s.env.personTarget, s.protocol));

  const fields = { name: `${s.env.runId} next`, age: 28, hobbies: ["relay"], address: { city: "Bern", zipCode: "3011" } };
  const request = create(nextRequest, { requestId: uuid(), person: { ...fields, nickname: "Nicky 🚀" } });
  // nickname must really travel, as field 7 the current schema does not know.
  const asCurrent = fromBinary(RegisterPersonRequestSchema, toBinary(nextRequest, request));
  expect((asCurrent.person?.$unknown ?? []).some((f) => f.no === 7),
    "the newer RegisterPersonRequest does not carry nickname (7) as an unknown field of the current schema");

  // What the registry should hand back: every field sent, nickname empty.
  const want = create(nextPerson, fields);
  const check = (got: Dynamic | undefined, what: string): Dynamic => {
    if (!got) fail(`${what}: response without a person`);
    expect(got["nickname"] === "", `${what}: nickname ${JSON.stringify(got["nickname"])}, want empty (the registry stores only its own fields)`);
    const rest = clone(nextPerson, got) as Dynamic;
    rest["id"] = "";
    rest["createdAt"] = undefined;
    expect(equals(nextPerson, rest, want), `${what}: ${toJsonString(nextPerson, rest)}, want ${toJsonString(nextPerson, want)}`);
    return got;
  };
  const registered = await ok(next["registerPerson"](request, await s.authed()), "RegisterPerson of the newer schema");
  const stored = check(registered["person"] as Dynamic | undefined, "RegisterPerson (newer schema)");
  const fetched = await ok(next["getPerson"](create(nextMessage(path, "acme.person.v1.GetPersonRequest"), { id: stored["id"] as string }), await s.authed()), "GetPerson (newer schema)");
  check(fetched["person"] as Dynamic | undefined, "GetPerson (newer schema)");
}
