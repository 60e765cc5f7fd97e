// End-to-end test of the extension in real VS Code (code-server) driven by Debian's chromium through
// playwright-core: the vsix installed offline, diagnostics in the Problems panel, a quick fix from the
// light bulb, completion inside {{ }}, and Run Recipe editing an open file. Screenshots go to $SHOTS.
//
// Environment: CODE_SERVER (binary), E2E_NODE_MODULES (holds playwright-core), VSIX, WORKSPACE (a folder
// with recipes/write.yaml and notes.txt), SHOTS (screenshot folder), CHROMIUM (default /usr/bin/chromium).
// Provider variables (GOOSE_PROVIDER, OPENAI_HOST, ...) pass through to the server.
import { createRequire } from "node:module";
import { spawn, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as net from "node:net";
import * as os from "node:os";

const require = createRequire(path.join(process.env.E2E_NODE_MODULES, "x.js"));
const { chromium } = require("playwright-core");

const env = (k) => {
  if (!process.env[k]) throw new Error(`${k} is not set`);
  return process.env[k];
};
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
    "security.workspace.trust.enabled": false,
    "workbench.tips.enabled": false,
    "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false,
    "telemetry.telemetryLevel": "off",
    "editor.quickSuggestions": { other: false, comments: false, strings: false },
    "goose.mode": "auto",
    "goose.storeSessions": false,
  }),
);

const step = (s) => console.log(`[vscode-e2e] ${s}`);
const freePort = () =>
  new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

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
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
  await page.waitForSelector(".monaco-workbench", { timeout: 60000 });
  await page.waitForTimeout(1500);

  const palette = async (text) => {
    await page.keyboard.press("F1");
    const input = page.locator(".quick-input-widget input.input");
    await input.waitFor({ state: "visible" });
    await input.fill(">" + text);
    await page.waitForTimeout(400);
    await input.press("Enter");
  };
  // openFile opens a workspace file through Quick Open, waiting for the file search to list it; on a slow
  // machine the first search can come back empty, so it retries and finally clicks the file in the Explorer.
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
        const row = page.locator(".quick-input-list .monaco-list-row", { hasText: base }).first();
        await row.waitFor({ timeout: 10000 });
        await page.waitForTimeout(200);
        await input.press("Enter");
        await tab.waitFor({ timeout: 10000 });
        await page.waitForTimeout(300);
        return;
      } catch (e) {
        lastErr = e;
        step(`quick open of ${name} failed (attempt ${attempt}): ${String(e?.message || e).split("\n")[0]}`);
        await page.screenshot({ path: path.join(shots, `open-${base}-attempt-${attempt}.png`) }).catch(() => {});
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
  const editorText = async () => (await page.locator(".editor-instance .view-lines").first().innerText()).replace(/\u00a0/g, " ");
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

  // the Explorer listing the workspace means the folder is loaded and the workbench takes keys
  await page.locator(".explorer-folders-view .monaco-list-row", { hasText: "notes.txt" }).first().waitFor({ timeout: 60000 });
  await page.waitForTimeout(500);
  // notes.txt open (its buffer is what the agent will edit), then the recipe
  await openFile("notes.txt");
  await openFile("recipes/write.yaml");

  step("diagnostics in the Problems panel");
  await palette("View: Focus Problems");
  const problem = page.locator(".markers-panel .monaco-list-row", { hasText: "Missing definitions for parameters" }).first();
  await problem.waitFor({ timeout: 60000 });
  await page.screenshot({ path: path.join(shots, "1-problems.png") });

  step("quick fix from the light bulb");
  // cursor to the problem: click into the editor, then Go to Next Problem (F8) and close its peek
  await page.locator(".editor-instance .view-lines").first().click();
  await page.keyboard.press("Control+Home");
  await page.keyboard.press("F8");
  await page.waitForTimeout(600);
  await page.keyboard.press("Escape");
  await page.waitForTimeout(300);
  await page.locator(".lightbulb-glyph, .codicon-light-bulb, .codicon-lightbulb-autofix").first().waitFor({ timeout: 15000 });
  await page.keyboard.press("Control+.");
  const fix = page.locator(".action-widget .monaco-list-row, .context-view .action-item", { hasText: 'Add parameter "topic"' }).first();
  await fix.waitFor({ timeout: 15000 });
  await page.screenshot({ path: path.join(shots, "2-quickfix-menu.png") });
  await page.keyboard.press("Enter"); // the only (preferred) fix is focused
  await waitText("the quick fix did not change the file", (t) => t.includes("key: topic"));
  await page.locator(".markers-panel .monaco-list-row", { hasText: "Missing definitions" }).first().waitFor({ state: "detached", timeout: 30000 });
  await page.keyboard.press("Control+S");
  await page.screenshot({ path: path.join(shots, "3-after-quickfix.png") });

  step("Run Recipe against the scripted provider");
  await palette("goose: Run Recipe");
  const input = page.locator(".quick-input-widget input.input");
  await page.locator(".quick-input-widget", { hasText: "topic" }).first().waitFor({ timeout: 15000 });
  await input.fill("agents");
  await page.waitForTimeout(500); // let the input's validation settle
  await input.press("Enter");
  await page.locator(".quick-input-widget").first().waitFor({ state: "hidden", timeout: 10000 });
  await page.getByText("=== completed ===").first().waitFor({ timeout: 60000 });
  await page.screenshot({ path: path.join(shots, "4-run-transcript.png") });
  await openFile("notes.txt");
  await waitText("the agent's edit did not reach notes.txt", (t) => t.includes("gamma"), 60000);
  await page.waitForTimeout(800);
  await page.screenshot({ path: path.join(shots, "5-run-edited-notes.png") });

  step("completion inside {{ }}");
  await openFile("recipes/write.yaml");
  await page.locator(".editor-instance .view-lines").first().click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type("\nactivities:\n  - \"{{ ");
  await page.keyboard.press("Control+Space");
  const suggest = page.locator(".editor-widget.suggest-widget.visible");
  await suggest.waitFor({ timeout: 20000 });
  await suggest.locator(".monaco-list-row", { hasText: "topic" }).first().waitFor({ timeout: 20000 });
  await page.screenshot({ path: path.join(shots, "6-completion.png") });
  step("OK");
} catch (e) {
  failed = true;
  console.error("[vscode-e2e] FAIL:", e?.stack || e);
  if (page) await page.screenshot({ path: path.join(shots, "failure.png") }).catch(() => {});
  console.error(csLog.split("\n").slice(-40).join("\n"));
} finally {
  if (browser) await browser.close().catch(() => {});
  cs.kill("SIGTERM");
}
process.exit(failed ? 1 : 0);
