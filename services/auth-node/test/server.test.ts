// The real server on port 0, called by the real generated client over each protocol the
// RPC port serves: gRPC, gRPC-Web and Connect, all over the one cleartext HTTP/2 port.
import { createClient } from "@connectrpc/connect";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { authServiceScenarios, rateLimitScenarios } from "./scenarios.js";
import { type Protocol, protocols, startTestServer } from "./support.js";
import type { LoginLimits } from "../src/config.js";

const target = (protocol: Protocol, loginLimits: LoginLimits) => async () => {
  const s = await startTestServer({ loginLimits });
  return { client: createClient(AuthService, s.clients.transport(protocol)), lines: s.lines, close: s.close };
};

for (const protocol of protocols) {
  authServiceScenarios(`AuthService over ${protocol}`, target(protocol, { perUserAndAddress: 1000, perAddress: 1000, perUser: 1000, windowSeconds: 900 }));
  rateLimitScenarios(`login limits over ${protocol}`, target(protocol, { perUserAndAddress: 3, perAddress: 6, perUser: 1000, windowSeconds: 900 }));
}
