// The code-server harness of the VS Code end-to-end scripts: the vsix installed offline into a fresh
// profile, code-server on a free loopback port, Debian's chromium through playwright-core, and the
// workbench helpers (command palette, quick open, editor text, webview frames).
//
// Environment: CODE_SERVER, E2E_NODE_MODULES (holds playwright-core), VSIX, WORKSPACE, SHOTS, CHROMIUM
// (default /usr/bin/chromium).
import { createRequire } from "node:module";
import { spawn, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as net from "node:net";
import * as os from "node:os";

export const env = (k) => {
  if (!process.env[k]) throw new Error(`${k} is not set`);
  return process.env[k];
};

export function stepper(prefix) {
  return (s) => console.log(`[${prefix}] ${s}`);
}

const freePort = () =>
  new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

/** withWorkbench starts code-server with `settings`, opens WORKSPACE in chromium and runs body(h);
 * it exits the process with 0 when body resolves, 1 (and a failure.png) when it throws. */
export async function withWorkbench(name, settings, body) {
  const step = stepper(name);
  const require = createRequire(path.join(env("E2E_NODE_MODULES"), "x.js"));
  const { chromium } = require("playwright-core");
  const codeServer = env("CODE_SERVER");
  const workspace = env("WORKSPACE");
  const shots = env("SHOTS");
  fs.mkdirSync(shots, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "goose-vscode-"));
  const userDir = path.join(tmp, "user");
  const extDir = path.join(tmp, "extensions");
  fs.mkdirSync(path.join(userDir, "User"), { recursive: true });
  fs.writeFileSync(
    path.join(userDir, "User", "settings.json"),
    JSON.stringify({
      "workbench.startupEditor": "none",
      "workbench.colorTheme": "Default Dark Modern",
      "security.workspace.trust.enabled": false,
      "workbench.tips.enabled": false,
      "extensions.autoCheckUpdates": false,
      "extensions.autoUpdate": false,
      "telemetry.telemetryLevel": "off",
      "editor.quickSuggestions": { other: false, comments: false, strings: false },
      ...settings,
    }),
  );
  step("installing the vsix offline");
  execFileSync(codeServer, ["--install-extension", env("VSIX"), "--extensions-dir", extDir], { stdio: "inherit" });
  const port = await freePort();
  const cs = spawn(codeServer, ["--config", "/dev/null", "--bind-addr", `127.0.0.1:${port}`, "--auth", "none", "--disable-telemetry",
    "--disable-update-check", "--disable-workspace-trust", "--disable-getting-started-override", "--disable-proxy",
    "--ignore-last-opened", "--user-data-dir", userDir, "--extensions-dir", extDir, workspace], { stdio: ["ignore", "pipe", "pipe"] });
  let csLog = "";
  cs.stdout.on("data", (d) => (csLog += d));
  cs.stderr.on("data", (d) => (csLog += d));
  let browser;
  let page;
  let failed = false;
  try {
    for (let i = 0; ; i++) {
      try {
        const r = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (r.ok) break;
      } catch {}
      if (i > 150) throw new Error("code-server did not become healthy:\n" + csLog);
      await new Promise((r) => setTimeout(r, 200));
    }
    step(`code-server on ${port}`);
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
    });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    page = await context.newPage();
    page.on("console", (m) => {
      if (m.type() === "error" && /goose|webview|Content Security/i.test(m.text())) step(`console: ${m.text().slice(0, 300)}`);
    });
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
    await page.waitForSelector(".monaco-workbench", { timeout: 60000 });
    await body(helpers(page, step, shots));
    step("OK");
  } catch (e) {
    failed = true;
    console.error(`[${name}] FAIL:`, e?.stack || e);
    if (page) {
      await page.screenshot({ path: path.join(shots, "failure.png") }).catch(() => {});
      for (const f of page.frames()) {
        const body = await f.evaluate(() => document.body?.innerHTML.slice(0, 400)).catch(() => "?");
        if (f.url().includes("webview")) console.error(`[${name}] frame ${f.url().slice(0, 120)}: ${body}`);
      }
    }
    console.error(csLog.split("\n").slice(-40).join("\n"));
  } finally {
    if (browser) await browser.close().catch(() => {});
    cs.kill("SIGTERM");
  }
  process.exit(failed ? 1 : 0);
}

function helpers(page, step, shots) {
  const shot = (name) => page.screenshot({ path: path.join(shots, name) });
  const palette = async (text) => {
    await page.keyboard.press("F1");
    const input = page.locator(".quick-input-widget input.input");
    await input.waitFor({ state: "visible" });
    await input.fill(">" + text);
    await page.waitForTimeout(400);
    await input.press("Enter");
  };
  // openFile opens a workspace file through Quick Open; on a slow machine the first search can come back
  // empty, so it retries and finally clicks the file in the Explorer.
  const openFile = async (name) => {
    const base = path.basename(name);
    const tab = page.locator(`.tab.active[aria-label*="${base}"], .tab.active:has-text("${base}")`).first();
    let lastErr;
    for (let attempt = 1; attempt <= 4; attempt++) {
      try {
        await page.keyboard.press("Escape");
        await page.keyboard.press("Control+P");
        const input = page.locator(".quick-input-widget input.input");
        await input.waitFor({ state: "visible", timeout: 10000 });
        await input.fill(name);
        await page.locator(".quick-input-list .monaco-list-row", { hasText: base }).first().waitFor({ timeout: 10000 });
        await page.waitForTimeout(200);
        await input.press("Enter");
        await tab.waitFor({ timeout: 10000 });
        await page.waitForTimeout(300);
        return;
      } catch (e) {
        lastErr = e;
        step(`quick open of ${name} failed (attempt ${attempt}): ${String(e?.message || e).split("\n")[0]}`);
        await shot(`open-${base}-attempt-${attempt}.png`).catch(() => {});
      }
    }
    step(`opening ${name} from the Explorer`);
    await page.keyboard.press("Escape");
    await palette("View: Show Explorer");
    const rows = page.locator(".explorer-folders-view .monaco-list-row");
    for (const dir of path.dirname(name).split("/").filter((d) => d && d !== ".")) {
      const folder = rows.filter({ hasText: dir }).first();
      await folder.waitFor({ timeout: 20000 }).catch(() => { throw lastErr; });
      if ((await folder.getAttribute("aria-expanded")) === "false") await folder.click();
    }
    const item = rows.filter({ hasText: base }).first();
    await item.waitFor({ timeout: 20000 }).catch(() => { throw lastErr; });
    await item.dblclick();
    await tab.waitFor({ timeout: 15000 });
    await page.waitForTimeout(300);
  };
  const waitText = async (what, pred, ms = 30000) => {
    const end = Date.now() + ms;
    let last = "";
    while (Date.now() < end) {
      last = await editorText();
      if (pred(last)) return last;
      await page.waitForTimeout(250);
    }
    throw new Error(`${what}; the editor shows:\n${last}`);
  };
  const editorText = async () => (await page.locator(".editor-instance .view-lines").first().innerText()).replace(/\u00a0/g, " ");
  const until = async (what, fn, ms = 30000) => {
    const end = Date.now() + ms;
    let last;
    while (Date.now() < end) {
      last = await fn().catch((e) => e);
      if (last && !(last instanceof Error)) return last;
      await page.waitForTimeout(250);
    }
    throw new Error(`${what}${last instanceof Error ? ": " + last.message : ""}`);
  };
  // webview finds the frame (webviews nest two iframes) whose document holds `selector`.
  const webview = (selector) =>
    until(`no webview holds ${selector}`, async () => {
      for (const f of page.frames()) {
        if (await f.$(selector).catch(() => null)) return f;
      }
      return undefined;
    }, 60000);
  return { page, step, shots, shot, palette, openFile, editorText, waitText, until, webview };
}
