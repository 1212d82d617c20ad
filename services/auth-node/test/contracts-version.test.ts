// Every answer names the contracts version the service was built with, over every protocol,
// on success and on error.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ConnectError, createClient } from "@connectrpc/connect";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { ADMIN, protocols, type Started, startTestServer } from "./support.js";
import { SDK_VERSION } from "./contracts-version-expected.js";

describe("the contracts version on every answer", () => {
  let s: Started;
  before(async () => {
    s = await startTestServer({});
  });
  after(() => s.close());

  for (const protocol of protocols) {
    it(`over ${protocol}: in the headers of an answer, in the metadata of an error`, async () => {
      const client = createClient(AuthService, s.clients.transport(protocol));
      let header: string | null = null;
      await client.login(ADMIN, { onHeader: (h) => (header = h.get("acme-contracts-version")) });
      assert.equal(header, SDK_VERSION);
      const refused = await client.listUsers({}).then(() => undefined, (e: unknown) => ConnectError.from(e));
      assert.ok(refused, "ListUsers without a token must fail");
      assert.equal(refused.metadata.get("acme-contracts-version"), SDK_VERSION);
    });
  }
});
