// The web page end to end, in headless Chromium against a running system (scripts/tests/
// web-page.sh brings one up with `make up`'s own script and passes its addresses): what a user
// does on the page and what the page must show, then what the browser must refuse.
//   WEB_PAGE_URL      the page, as make up prints it (the one origin the system allows)
//   WEB_PROXY_URL     person-spring's web proxy
//   ADMIN_USERNAME, ADMIN_PASSWORD
//   TOKEN_TTL_SECONDS how long the system's tokens live (the test waits that long for one to expire)
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { launch } from "../../../scripts/tests/chromium.mjs";

const env = (name) => process.env[name] ?? assert.fail(`${name} is not set`);
const pageUrl = new URL(env("WEB_PAGE_URL"));
const proxyUrl = env("WEB_PROXY_URL");
const run = `web ${Date.now().toString(36)}`;
let browser;
let page;

before(async () => {
  browser = await launch();
  page = await browser.context.newPage();
  page.on("pageerror", (e) => process.stderr.write(`page error: ${e.stack ?? e.message}\n`));
  await page.goto(pageUrl.href);
  await page.waitForSelector("body[data-ready=true]");
});
after(async () => browser?.close());

/** Fills a form's fields, submits it, and waits until its output (emptied first) has the answer. */
async function submit(form, fields, out) {
  for (const [name, value] of Object.entries(fields)) await page.fill(`#${form} [name=${name}]`, String(value));
  const selector = `[data-testid=${out}]`;
  await page.$eval(selector, (el) => { el.textContent = ""; });
  await page.click(`#${form} button`);
  await page.waitForFunction((sel) => { const t = document.querySelector(sel)?.textContent ?? ""; return t !== "" && !t.endsWith("…"); }, selector);
  return page.textContent(selector);
}

test("a wrong password is refused with its code", async () => {
  const out = await submit("login", { username: env("ADMIN_USERNAME"), password: "not-the-password" }, "login");
  assert.match(out, /^unauthenticated: /);
  assert.match(await page.textContent("[data-testid=refusals]"), /unauthenticated/);
});

test("the admin logs in at auth-node and gets a token", async () => {
  const out = await submit("login", { username: env("ADMIN_USERNAME"), password: env("ADMIN_PASSWORD") }, "login");
  assert.match(out, /^logged in: a token until \d{4}-/);
});

test("people are registered through the web proxy", async () => {
  for (const [i, name] of ["Ada", "Grace", "Edsger"].entries()) {
    const out = await submit("register", { name: `${run} ${name}`, age: 30 + i, city: "London", zipCode: "W1 1AA" }, "register");
    assert.match(out, new RegExp(`^stored: ${run} ${name} \\(id [0-9a-f-]{36}\\)$`));
  }
});

test("bad input is refused with the schema's violations", async () => {
  const out = await submit("register", { name: "", age: 200, city: "", zipCode: "" }, "register");
  assert.match(out, /^invalid_argument: /);
  assert.match(out, /person\.name: .*\[string\.min_len\]/);
  assert.match(out, /person\.age: .*\[int32\.gte_lte\]/);
});

test("the people are listed as they stream in", async () => {
  const out = await submit("list", { nameContains: run }, "list");
  assert.equal(out, "3 people");
  const names = await page.$$eval("[data-testid=people] tr td:first-child", (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(names.sort(), [`${run} Ada`, `${run} Edsger`, `${run} Grace`]);
});

test("a page from another origin can neither log in nor get anything from the proxy, and stores nothing", async () => {
  // localhost and 127.0.0.1 are two origins: the same page, served under the other name.
  const other = await browser.context.newPage();
  await other.goto(`http://localhost:${pageUrl.port}/`);
  await other.waitForSelector("body[data-ready=true]");
  // Its login is refused before it reaches auth-node: the browser reports a failed fetch.
  await other.fill("#login [name=password]", env("ADMIN_PASSWORD"));
  await other.click("#login button");
  await other.waitForFunction(() => (document.querySelector("[data-testid=login]")?.textContent ?? "") !== "");
  assert.match(await other.textContent("[data-testid=login]"), /^unknown: Failed to fetch/);
  const result = await other.evaluate(async ({ proxy, name }) => {
    try {
      const res = await fetch(`${proxy}/acme.person.v1.PersonService/RegisterPerson`, {
        method: "POST",
        headers: { "content-type": "application/json", "connect-protocol-version": "1" },
        body: JSON.stringify({ requestId: crypto.randomUUID(), person: { name, age: 40 } }),
      });
      return `read ${res.status}`;
    } catch (e) {
      return `refused: ${e}`;
    }
  }, { proxy: proxyUrl, name: `${run} from elsewhere` });
  await other.close();
  assert.match(result, /^refused: TypeError/);
  // Outside a browser, the same request with that Origin: no CORS headers, no data.
  const res = await fetch(`${proxyUrl}/acme.person.v1.PersonService/ListPeople`, {
    method: "POST",
    headers: { origin: `http://localhost:${pageUrl.port}`, "content-type": "application/json", "connect-protocol-version": "1" },
    body: "{}",
  });
  assert.equal(res.status, 403);
  assert.equal(res.headers.get("access-control-allow-origin"), null);
  assert.doesNotMatch(await res.text(), /person/);
  // And nothing was stored: the allowed page lists only its own three.
  assert.equal(await submit("list", { nameContains: run }, "list"), "3 people");
});

test("a preflight for a method the proxy does not serve is refused", async () => {
  const result = await page.evaluate(async (proxy) => {
    try {
      await fetch(`${proxy}/acme.person.v1.PersonService/RegisterPerson`, { method: "DELETE", headers: { "content-type": "application/json" } });
      return "sent";
    } catch (e) {
      return `refused: ${e}`;
    }
  }, proxyUrl);
  assert.match(result, /^refused: TypeError/);
  const preflight = await fetch(`${proxyUrl}/acme.person.v1.PersonService/RegisterPerson`, {
    method: "OPTIONS",
    headers: { origin: pageUrl.origin, "access-control-request-method": "DELETE" },
  });
  assert.equal(preflight.status, 403);
  assert.equal(preflight.headers.get("access-control-allow-origin"), null);
});

test("an expired token is refused with its code", async () => {
  // The system's tokens live TOKEN_TTL_SECONDS; person-spring remembers a valid one for at
  // most AUTH_CACHE_TTL (5 s) more.
  await new Promise((resolve) => setTimeout(resolve, (Number(env("TOKEN_TTL_SECONDS")) + 6) * 1000));
  const out = await submit("register", { name: `${run} late`, age: 50, city: "London", zipCode: "W1 1AA" }, "register");
  assert.match(out, /^unauthenticated: /);
});
