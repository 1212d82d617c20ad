// serve.mjs — serves the built page (dist/) and config.json, the addresses the page calls:
//   WEB_PAGE_PORT (default 8089), WEB_PAGE_HOST (default 127.0.0.1; 0.0.0.0 in a container),
//   WEB_PAGE_AUTH_URL and WEB_PAGE_PERSON_URL (as the browser reaches them).
// Node's own http module only, so it runs on the Node base image with nothing installed.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";

const dist = new URL("./dist/", import.meta.url);
const config = JSON.stringify({ authUrl: need("WEB_PAGE_AUTH_URL"), personUrl: need("WEB_PAGE_PERSON_URL") });
const types = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8" };
const files = { "/": "index.html", "/index.html": "index.html", "/app.js": "app.js" };

function need(name) {
  const value = process.env[name];
  if (!value) {
    process.stderr.write(`${name} is not set\n`);
    process.exit(2);
  }
  return value;
}

const server = createServer(async (req, res) => {
  const path = new URL(req.url ?? "/", "http://page").pathname;
  if (path === "/config.json") {
    res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" }).end(config);
    return;
  }
  const file = files[path];
  if (req.method !== "GET" || file === undefined) {
    res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    return;
  }
  try {
    const body = await readFile(new URL(file, dist));
    res.writeHead(200, { "content-type": types[file.slice(file.lastIndexOf("."))], "cache-control": "no-cache" }).end(body);
  } catch (err) {
    res.writeHead(500, { "content-type": "text/plain" }).end(`${err}\n`);
  }
});
const port = Number(process.env.WEB_PAGE_PORT ?? 8089);
server.listen(port, process.env.WEB_PAGE_HOST ?? "127.0.0.1", () => {
  process.stderr.write(`web page listening on ${port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
