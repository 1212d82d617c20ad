// What a team outside the monorepo writes first, in Node: log in to auth-node, register a
// person with person-spring and read it back over gRPC, with @acme/contracts as installed
// from the contracts' npm registry. Prints one line: the SDK version installed, and the
// contracts version each service names in its acme-contracts-version header. Targets and the
// admin's credentials come from the environment (AUTH_TARGET, PERSON_TARGET,
// AUTH_ADMIN_USERNAME, AUTH_ADMIN_PASSWORD).
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { PersonService } from "@acme/contracts/acme/person/v1/person_service_pb";

const sdk = JSON.parse(readFileSync(createRequire(import.meta.url).resolve("@acme/contracts/package.json"), "utf8"));
const transport = (target) => createGrpcTransport({ baseUrl: `http://${target}` });
const seen = {};
const header = (service) => (headers) => { seen[service] = headers.get("acme-contracts-version"); };

const auth = createClient(AuthService, transport(process.env.AUTH_TARGET));
const { token } = await auth.login(
  { username: process.env.AUTH_ADMIN_USERNAME, password: process.env.AUTH_ADMIN_PASSWORD },
  { timeoutMs: 20_000, onHeader: header("auth-node") },
);
const people = createClient(PersonService, transport(process.env.PERSON_TARGET));
const options = { timeoutMs: 20_000, headers: { authorization: `Bearer ${token}` }, onHeader: header("person-spring") };
const name = `outside npm ${randomUUID()}`;
const { person: stored } = await people.registerPerson(
  { requestId: randomUUID(), person: { name, age: 41, hobbies: ["maps"] } }, options);
const { person: read } = await people.getPerson({ id: stored.id }, options);
if (read.name !== name || read.age !== 41) throw new Error(`read back ${read.name}/${read.age}, registered ${name}`);
console.log(`npm: @acme/contracts@${sdk.version}: logged in, registered and read back ${stored.id}; ` +
  `auth-node runs contracts ${seen["auth-node"]}, person-spring runs contracts ${seen["person-spring"]}`);
