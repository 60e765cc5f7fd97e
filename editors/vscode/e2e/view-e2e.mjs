// End-to-end test of the goose view in real VS Code (code-server): a recipe run in approve mode whose edit
// is approved in the view, the tool call expanded, Review opening the diff editor, Undo turn restoring
// the file, the session list, a run from the view's parameters form, Cancel and Resume; a screenshot of
// each step goes to $SHOTS.
// WORKSPACE holds notes.txt ("alpha\nbeta\n") and recipes/write.yaml (topic defaults to agents); the
// scripted model edits beta to gamma, then answers.
import { withWorkbench } from "./harness.mjs";

await withWorkbench("view-e2e", { "goose.mode": "approve" }, async ({ page, step, shot, palette, openFile, editorText, until, webview }) => {
  await page.locator(".explorer-folders-view .monaco-list-row", { hasText: "notes.txt" }).first().waitFor({ timeout: 60000 });
  await openFile("notes.txt");
  await openFile("recipes/write.yaml");
  await page.locator(".codelens-decoration", { hasText: "Run recipe" }).first().waitFor({ timeout: 60000 });

  step("Run Recipe opens the goose view, which asks for the approval inline");
  await palette("goose: Run Recipe");
  const view = await webview("#goose-root");
  const approval = view.locator(".approval", { hasText: "goose wants to run edit" });
  await approval.waitFor({ timeout: 60000 });
  for (const title of ["Allow once", "Allow for this run", "Deny"]) await approval.locator("button", { hasText: title }).first().waitFor();
  // keyboard-reachable: the first answer has the focus inside the view
  await until("the approval's first button is not focused", () => view.evaluate(() => document.activeElement?.textContent === "Allow once"), 10000);
  await page.locator(".monaco-dialog-box").waitFor({ state: "detached", timeout: 1000 }); // no modal dialog
  await shot("10-view-approval.png");
  await approval.locator("button", { hasText: "Allow once" }).click();
  await approval.waitFor({ state: "detached", timeout: 10000 });

  step("the run completes; the tool call expands to its arguments and result");
  await view.locator(".run h2 .status.completed").waitFor({ timeout: 60000 });
  await view.locator(".assistant", { hasText: "Done." }).waitFor({ timeout: 10000 });
  const tool = view.locator("details.tool", { hasText: "edit" }).first();
  await tool.locator("summary").click();
  await tool.locator("pre.args", { hasText: '"after": "gamma"' }).waitFor({ timeout: 10000 });
  await tool.locator("pre.result").waitFor({ state: "visible", timeout: 10000 });
  await shot("11-view-tool-expanded.png");

  step("Review opens the diff editor, before ↔ now");
  await view.locator(".turn button", { hasText: "Review" }).first().click();
  const diff = page.locator(".monaco-diff-editor");
  await diff.first().waitFor({ timeout: 20000 });
  await page.locator(".tab.active", { hasText: "before turn" }).first().waitFor({ timeout: 10000 });
  await until("the diff does not show beta → gamma", async () => {
    const text = await diff.first().innerText();
    return text.includes("beta") && text.includes("gamma");
  });
  await page.waitForTimeout(500);
  await shot("12-view-review-diff.png");

  step("Undo turn restores notes.txt");
  await view.locator(".turn button", { hasText: "Undo turn" }).first().click();
  await view.locator(".turn .undone").waitFor({ timeout: 20000 });
  await openFile("notes.txt");
  await until("notes.txt was not restored", async () => {
    const t = await editorText();
    return t.includes("beta") && !t.includes("gamma");
  });
  await shot("13-view-undone.png");

  step("the session list offers resume");
  await view.locator(".toolbar button", { hasText: "Sessions" }).click();
  await view.locator(".sessions li button", { hasText: "Resume" }).first().waitFor({ timeout: 20000 });
  await shot("14-view-sessions.png");

  step("Run Recipe in the view asks for the parameters in a form");
  await view.locator(".toolbar button", { hasText: "Run Recipe" }).click();
  const field = view.locator("#params-form input[name=topic]");
  await field.waitFor({ timeout: 20000 });
  if ((await field.inputValue()) !== "agents") throw new Error(`the form does not show topic's default: ${await field.inputValue()}`);
  await field.fill("geese");
  await shot("15-view-params-form.png");
  await view.locator("#params-form button", { hasText: "Run" }).first().click();
  await view.locator("#params-form").waitFor({ state: "detached", timeout: 10000 });
  await view.locator(".run h2 .status.completed").nth(1).waitFor({ timeout: 60000 });
  await view.locator(".assistant", { hasText: "Noted." }).waitFor({ timeout: 10000 });

  step("Cancel stops a run that is still going");
  await view.locator(".toolbar button", { hasText: "Run Recipe" }).click();
  await view.locator("#params-form button", { hasText: "Run" }).first().click();
  const cancel = view.locator(".run h2 button", { hasText: "Cancel" });
  await cancel.waitFor({ timeout: 30000 });
  await view.locator(".assistant", { hasText: "Thinkin" }).waitFor({ timeout: 30000 }); // the model is streaming (its first chunk)
  await cancel.click();
  await view.locator(".run h2 .status.cancelled").waitFor({ timeout: 30000 });
  await shot("16-view-cancelled.png");

  step("Resume from the session list");
  await view.locator(".toolbar button", { hasText: "Sessions" }).click();
  await view.locator(".sessions li button", { hasText: "Resume" }).first().click();
  const input = page.locator(".quick-input-widget input.input");
  await input.waitFor({ state: "visible", timeout: 10000 });
  await input.press("Enter"); // goose's default prompt: "Continue where you left off."
  await view.locator(".assistant", { hasText: "Resumed." }).waitFor({ timeout: 60000 });
  await shot("17-view-resumed.png");

  step("the view's Content-Security-Policy");
  const csp = await view.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute("content") ?? "");
  // nothing by default, scripts only by nonce, nothing unsafe
  if (!csp.startsWith("default-src 'none';") || !/script-src 'nonce-[^' ]+';/.test(csp) || /unsafe/.test(csp)) throw new Error(`weak CSP: ${csp}`);
  step(`CSP: ${csp}`);
});
