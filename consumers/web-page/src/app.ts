// The demo's scenario in a browser, on the TypeScript SDK alone: its service descriptors with
// Connect for Web (JSON, Connect's default in browsers). auth-node answers the page itself;
// person-spring speaks only gRPC, so the page reaches it through its web proxy. Where both
// are comes from config.json, written by whoever serves the page (serve.mjs).
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { ViolationsSchema } from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { PersonService } from "@acme/contracts/acme/person/v1/person_service_pb";
import { PersonSchema } from "@acme/contracts/acme/person/v1/person_pb";

interface Config {
  authUrl: string;
  personUrl: string;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
let token = "";

/** A refusal as the page shows it: the status code's name, the message, each violation. */
function describe(err: unknown): string {
  const e = ConnectError.from(err);
  const violations = e.findDetails(ViolationsSchema).flatMap((v) => v.violations);
  const lines = [`${Code[e.code].replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase()}: ${e.rawMessage}`];
  for (const v of violations) {
    const field = v.field?.elements.map((el) => el.fieldName).join(".") ?? "";
    lines.push(`  ${field}: ${v.message} [${v.ruleId}]`);
  }
  return lines.join("\n");
}

function show(id: string, text: string, ok: boolean): void {
  const out = $(id);
  out.textContent = text;
  out.className = `out ${ok ? "ok" : "refused"}`;
  if (!ok) {
    const item = document.createElement("li");
    item.textContent = text;
    $("refusals").append(item);
  }
}

function form(id: string, run: (data: FormData) => Promise<void>): void {
  $(id).addEventListener("submit", (event) => {
    event.preventDefault();
    void run(new FormData(event.target as HTMLFormElement));
  });
}

async function main(): Promise<void> {
  const config = (await (await fetch("config.json")).json()) as Config;
  $("where").textContent = `auth-node ${config.authUrl}, person-spring (web proxy) ${config.personUrl}`;
  const auth = createClient(AuthService, createConnectTransport({ baseUrl: config.authUrl }));
  const people = createClient(PersonService, createConnectTransport({ baseUrl: config.personUrl }));
  const bearer = () => ({ authorization: `Bearer ${token}` });

  form("login", async (data) => {
    try {
      const answer = await auth.login({ username: String(data.get("username")), password: String(data.get("password")) });
      token = answer.token;
      const expires = answer.expiresAt ? new Date(Number(answer.expiresAt.seconds) * 1000).toISOString() : "?";
      show("login-out", `logged in: a token until ${expires}`, true);
    } catch (err) {
      show("login-out", describe(err), false);
    }
  });

  form("register", async (data) => {
    const city = String(data.get("city") ?? "");
    const zipCode = String(data.get("zipCode") ?? "");
    const person = create(PersonSchema, {
      name: String(data.get("name")),
      age: Number(data.get("age")),
      address: city || zipCode ? { city, zipCode } : undefined,
    });
    try {
      // request_id makes a retry safe: the same id is answered with the same person.
      const answer = await people.registerPerson({ requestId: crypto.randomUUID(), person }, { headers: bearer() });
      show("register-out", `stored: ${answer.person?.name} (id ${answer.person?.id})`, true);
    } catch (err) {
      show("register-out", describe(err), false);
    }
  });

  form("list", async (data) => {
    const rows = $("people");
    rows.replaceChildren();
    show("list-out", "listing…", true);
    let n = 0;
    try {
      // A server stream: each person is shown the moment it arrives.
      for await (const { person } of people.listPeople({ nameContains: String(data.get("nameContains")) }, { headers: bearer() })) {
        const row = document.createElement("tr");
        for (const cell of [person?.name, String(person?.age ?? ""), person?.address?.city ?? "", person?.id]) {
          const td = document.createElement("td");
          td.textContent = cell ?? "";
          row.append(td);
        }
        rows.append(row);
        show("list-out", `${++n} so far…`, true);
      }
      show("list-out", `${n} people`, true);
    } catch (err) {
      show("list-out", describe(err), false);
    }
  });
  document.body.dataset.ready = "true";
}

void main();
