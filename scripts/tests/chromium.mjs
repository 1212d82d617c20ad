// scripts/tests/chromium.mjs — how every browser test here starts Chromium: Debian's binary
// (scripts/setup/chromium.sh installs it; Playwright's own browser downloads cannot be fetched
// here), driven by Playwright through executablePath; headless, no sandbox (the tests run as
// root), none of the background traffic a closed network refuses (component updates, sync,
// QUIC probes), and a new, empty profile that is deleted afterwards. Used by the browser client
// of the compatibility matrix and by the web page's end-to-end test.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

/** The binary scripts/setup/chromium.sh installs, unless CHROMIUM names another. */
export const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";

export const flags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * A fresh browser with a fresh profile (launchPersistentContext is Playwright's way to name
 * the --user-data-dir); close() ends both.
 * @returns {Promise<{context: import("playwright-core").BrowserContext, close: () => Promise<void>}>}
 */
export async function launch() {
  const profile = await mkdtemp(join(tmpdir(), "acme-chromium-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: flags });
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      await rm(profile, { recursive: true, force: true });
    },
  };
}
