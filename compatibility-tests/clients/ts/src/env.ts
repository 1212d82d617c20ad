// The environment the harness sets for a live run (compatibility-tests/README.md).
import { Failure } from "./check.js";

export interface LiveEnv {
  personTarget: string;
  authTarget: string;
  adminUsername: string;
  adminPassword: string;
  runId: string;
  nextDescriptors: string;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Failure(`environment variable ${name} is not set`);
  return value;
}

export function liveEnv(): LiveEnv {
  const runId = required("COMPAT_RUN_ID");
  if (!/^[a-z][a-z0-9]{7}$/.test(runId)) throw new Failure(`COMPAT_RUN_ID ${runId} is not [a-z][a-z0-9]{7}`);
  return {
    personTarget: required("PERSON_TARGET"),
    authTarget: required("AUTH_TARGET"),
    adminUsername: required("AUTH_ADMIN_USERNAME"),
    adminPassword: required("AUTH_ADMIN_PASSWORD"),
    runId,
    // Read only by the unknown-fields features, so a missing one fails only those.
    nextDescriptors: process.env["COMPAT_NEXT_DESCRIPTORS"] ?? "",
  };
}
