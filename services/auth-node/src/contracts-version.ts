// The contracts this service was built with: the version of the @acme/contracts package it
// runs on, which every answer names (the acme-contracts-version header), so a client that
// sees an unexpected answer can tell a contract mismatch from a bug.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

export const CONTRACTS_VERSION_HEADER = "acme-contracts-version";

export const CONTRACTS_VERSION: string = (
  JSON.parse(readFileSync(createRequire(import.meta.url).resolve("@acme/contracts/package.json"), "utf8")) as { version: string }
).version;
