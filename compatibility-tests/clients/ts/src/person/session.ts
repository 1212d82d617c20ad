// What every person-spring feature needs: a client of the SDK's PersonService over the
// protocol under test (gRPC: person-spring is grpc-java), and the admin token, which comes
// from AuthService/Login at auth-node over gRPC, as the contract says.
import { randomUUID } from "node:crypto";
import { type Client, createClient } from "@connectrpc/connect";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { type Person, PersonSchema } from "@acme/contracts/acme/person/v1/person_pb";
import { ListPeopleRequestSchema, PersonService } from "@acme/contracts/acme/person/v1/person_service_pb";
import type { LiveEnv } from "../env.js";
import { type Protocol, transportFor } from "../transport.js";
import { adminToken, bearer } from "../auth/session.js";
import { ok } from "../check.js";

export interface PersonSession {
  env: LiveEnv;
  protocol: Protocol;
  client: Client<typeof PersonService>;
  auth: Client<typeof AuthService>;
  /** The admin token (logged in once per driver run). */
  token(): Promise<string>;
  /** Call options carrying `authorization: Bearer <admin token>`. */
  authed(): Promise<{ headers: { authorization: string } }>;
}

export function personSession(env: LiveEnv, protocol: Protocol): PersonSession {
  const auth = createClient(AuthService, transportFor(env.authTarget, "grpc"));
  let token: Promise<string> | undefined;
  const session: PersonSession = {
    env,
    protocol,
    client: createClient(PersonService, transportFor(env.personTarget, protocol)),
    auth,
    token: () => (token ??= adminToken(auth, env)),
    authed: async () => bearer(await session.token()),
  };
  return session;
}

export function person(init: MessageInitShape<typeof PersonSchema>): Person {
  return create(PersonSchema, init);
}

export const uuid = randomUUID;

/** RegisterPerson with the admin token and a fresh request id; returns the stored person. */
export async function register(s: PersonSession, p: Person, what = `RegisterPerson(${p.name})`): Promise<Person> {
  const res = await ok(s.client.registerPerson({ requestId: uuid(), person: p }, await s.authed()), what);
  if (!res.person) throw new Error(`${what}: response without a person`);
  return res.person;
}

/** GetPerson with the admin token; returns the person. */
export async function get(s: PersonSession, id: string): Promise<Person> {
  const res = await ok(s.client.getPerson({ id }, await s.authed()), `GetPerson(${id})`);
  if (!res.person) throw new Error(`GetPerson(${id}): response without a person`);
  return res.person;
}

/** ListPeople with the admin token, collecting the whole server stream. */
export async function list(
  s: PersonSession, request: MessageInitShape<typeof ListPeopleRequestSchema>,
): Promise<Person[]> {
  const people: Person[] = [];
  const what = `ListPeople(${JSON.stringify(request.nameContains ?? "")})`;
  await ok((async () => {
    for await (const res of s.client.listPeople(request, await s.authed())) {
      if (!res.person) throw new Error(`${what}: a response without a person`);
      people.push(res.person);
    }
  })(), what);
  return people;
}
