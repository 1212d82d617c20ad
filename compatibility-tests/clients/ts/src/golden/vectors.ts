// golden/vectors.json and the SDK's message types by full name. The registry holds the
// SDK's own generated files (the package under test), never the newer schema: unknown
// vectors must be read with the current one.
import { readFileSync } from "node:fs";
import { createRegistry, type DescMessage, type JsonValue } from "@bufbuild/protobuf";
import { file_acme_person_v1_person } from "@acme/contracts/acme/person/v1/person_pb";
import { file_acme_person_v1_person_service } from "@acme/contracts/acme/person/v1/person_service_pb";
import { file_acme_auth_v1_user } from "@acme/contracts/acme/auth/v1/user_pb";
import { file_acme_auth_v1_auth_service } from "@acme/contracts/acme/auth/v1/auth_service_pb";

export interface Vector {
  name: string;
  type: string;
  json: JsonValue;
  binary: string;
  unknown?: boolean;
}

const registry = createRegistry(
  file_acme_person_v1_person, file_acme_person_v1_person_service, file_acme_auth_v1_user, file_acme_auth_v1_auth_service);

export function schemaOf(v: Vector): DescMessage {
  const schema = registry.getMessage(v.type);
  if (!schema) throw new Error(`vector ${v.name}: type ${v.type} is not in @acme/contracts`);
  return schema;
}

export function loadVectors(path: string): Vector[] {
  const vectors = JSON.parse(readFileSync(path, "utf8")) as Vector[];
  if (!Array.isArray(vectors) || vectors.length === 0) throw new Error(`${path}: no vectors`);
  return vectors;
}

export const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
export const unhex = (text: string) => new Uint8Array(Buffer.from(text, "hex"));

/** JSON values compared as values: objects by their keys, whatever the order. */
export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
}
