// contracts.ts — where this service meets the generated contracts. It starts as a small
// example (a validated Person and the contract version) that proves the generated code
// compiles against its runtimes; grow your service from here or replace it.
import { create } from "@bufbuild/protobuf";
import { createValidator } from "@bufbuild/protovalidate";
import { PersonSchema } from "./gen/acme/person/v1/person_pb.js";
import { PersonService } from "./gen/acme/person/v1/person_service_pb.js";
import { CONTRACTS_COMMIT, CONTRACTS_VERSION } from "./gen/contracts_version.js";

/** contractsBuild says which contracts this service was built against, for logs and health checks. */
export function contractsBuild(): string {
  return `acme contracts ${CONTRACTS_VERSION} (${CONTRACTS_COMMIT.slice(0, 12)})`;
}

/** personServiceMethods lists the RPCs of the person service, as the contracts define them. */
export function personServiceMethods(): string[] {
  return PersonService.methods.map((method) => method.name);
}

/** validPersonName reports whether a person with this name and age passes the contracts' rules. */
export function validPersonName(name: string, age: number): boolean {
  const person = create(PersonSchema, { name, age });
  return createValidator().validate(PersonSchema, person).kind === "valid";
}
