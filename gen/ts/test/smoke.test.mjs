// Smoke test of the published package: imports go through the package name and its
// "exports" map, exactly as a consumer's would, so a broken build or manifest fails here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { create, toBinary, fromBinary, toJson, fromJson, equals } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { createValidator } from "@bufbuild/protovalidate";
import { PersonSchema, AddressSchema } from "@acme/contracts/acme/person/v1/person_pb";
import { PersonService } from "@acme/contracts/acme/person/v1/person_service_pb";
import { AuthService, LoginRequestSchema } from "@acme/contracts/acme/auth/v1/auth_service_pb";

const person = create(PersonSchema, {
  id: "5b0e7c1e-3f0a-4d4e-9a51-0c6b1f2a9e11",
  name: "Polar Penguin ❄",
  age: 20,
  hobbies: ["swimming", "sliding"],
  address: create(AddressSchema, { city: "Zürich", zipCode: "8001" }),
  createdAt: timestampFromMs(1_764_000_000_123),
});

test("Person round-trips through binary", () => {
  const back = fromBinary(PersonSchema, toBinary(PersonSchema, person));
  assert.ok(equals(PersonSchema, person, back));
});

test("Person round-trips through canonical JSON", () => {
  const json = toJson(PersonSchema, person);
  assert.equal(json.address.zipCode, "8001");
  assert.equal(json.createdAt, "2025-11-24T16:00:00.123Z");
  assert.ok(equals(PersonSchema, person, fromJson(PersonSchema, json)));
});

test("the small person has the documented 17-byte encoding", () => {
  const small = create(PersonSchema, { name: "polar penguin", age: 20 });
  assert.equal(toBinary(PersonSchema, small).length, 17);
});

test("service descriptors carry every call shape", () => {
  const kinds = Object.fromEntries(PersonService.methods.map((m) => [m.name, m.methodKind]));
  assert.deepEqual(kinds, {
    RegisterPerson: "unary",
    RegisterPeople: "client_streaming",
    GetPerson: "unary",
    ListPeople: "server_streaming",
    SyncPeople: "bidi_streaming",
  });
  assert.equal(AuthService.typeName, "acme.auth.v1.AuthService");
});

test("buf.validate rules travel with the schema", () => {
  const validator = createValidator();
  assert.equal(validator.validate(PersonSchema, person).kind, "valid");
  const bad = validator.validate(LoginRequestSchema, create(LoginRequestSchema, { username: "X", password: "" }));
  assert.equal(bad.kind, "invalid");
  const found = bad.violations.map((v) => `${v.toString()}`).join("\n");
  assert.match(found, /username/);
  assert.match(found, /password/);
});
