// The auth service's own decoder, for the fuzz suite's oracle: auth-node decodes requests with
// protobuf-es, which is more lenient than protobuf-java or upb (it reads a known field with the
// wire type its schema declares, whatever the tag says). Whether auth-node must answer
// INVALID_ARGUMENT is a question of what *it* can decode, so the suite asks the same library,
// through the TypeScript SDK. One request per line, "<message type> <hex>"; one answer per
// line, "1" (decodes) or "0".
import { createInterface } from "node:readline";
import { fromBinary } from "@bufbuild/protobuf";
import * as service from "@acme/contracts/acme/auth/v1/auth_service_pb";

const schemas = Object.fromEntries(
  Object.values(service).filter((s) => s?.kind === "message").map((s) => [s.typeName, s]),
);
for await (const line of createInterface({ input: process.stdin })) {
  const [type, hex] = line.split(" ");
  let ok = "0";
  try {
    fromBinary(schemas[type], Buffer.from(hex ?? "", "hex"));
    ok = "1";
  } catch {
    // undecodable
  }
  process.stdout.write(ok + "\n");
}
