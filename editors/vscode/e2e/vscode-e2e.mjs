// End-to-end test of the extension in real VS Code (code-server) driven by Debian's chromium through
// playwright-core (harness.mjs): the vsix installed offline, diagnostics in the Problems panel, a quick fix
// from the light bulb, the render preview and template highlighting (preview-steps.mjs), completion inside
// {{ }}, and Run Recipe editing an open file. Screenshots go to $SHOTS.
//
// WORKSPACE is a folder with recipes/write.yaml and notes.txt. Provider variables (GOOSE_PROVIDER,
// OPENAI_HOST, ...) pass through to the server.
import * as path from "node:path";
import { withWorkbench } from "./harness.mjs";
import { previewAndHighlighting } from "./preview-steps.mjs";

const settings = { "goose.mode": "auto", "goose.storeSessions": false, "goose.previewValues": { topic: "agents" } };

await withWorkbench("vscode-e2e", settings, async ({ page, step, shots, palette, openFile, waitText }) => {
  await page.waitForTimeout(1500);
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

  await previewAndHighlighting({ page, palette, openFile, step, shots });

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
});
