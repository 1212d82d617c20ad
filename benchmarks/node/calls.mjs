// calls.mjs BASE_URL PROTOCOL HTTP_VERSION COUNT — COUNT ListUsers calls in a row on one
// connection with the admin's JWT (env BENCH_TOKEN), through the TypeScript SDK and Connect
// for Node: PROTOCOL connect or grpc, HTTP_VERSION 1.1 or 2. The benchmark points BASE_URL at
// its byte-counting proxy (scenario 2). Prints the number of calls answered.
import { createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";

const [baseUrl, protocol, httpVersion, count] = process.argv.slice(2);
const token = process.env.BENCH_TOKEN;
if (!baseUrl || !["connect", "grpc"].includes(protocol) || !["1.1", "2"].includes(httpVersion) || !token) {
  console.error("usage: BENCH_TOKEN=… calls.mjs BASE_URL connect|grpc 1.1|2 COUNT");
  process.exit(2);
}
const options = { baseUrl, httpVersion, useBinaryFormat: true };
const transport = protocol === "grpc" ? createGrpcTransport({ ...options, httpVersion: "2" }) : createConnectTransport(options);
const client = createClient(AuthService, transport);
let answered = 0;
for (let i = 0; i < Number(count); i++) {
  await client.listUsers({}, { headers: { authorization: `Bearer ${token}` } });
  answered++;
}
console.log(answered);
