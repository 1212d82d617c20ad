// The SDK version the tests expect the service to name: versions.env's SDK_VERSION, read apart
// from the package the service reads it from, so the check is not the service's own answer.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let dir = dirname(fileURLToPath(import.meta.url));
while (!existsSync(join(dir, "versions.env"))) {
  const up = dirname(dir);
  if (up === dir) throw new Error("versions.env not found above " + fileURLToPath(import.meta.url));
  dir = up;
}
export const SDK_VERSION = /^SDK_VERSION=(.+)$/m.exec(readFileSync(join(dir, "versions.env"), "utf8"))![1]!;
