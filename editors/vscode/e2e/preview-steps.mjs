// e2e steps for the render preview (goose: Open Preview re-rendering as the user types) and template
// highlighting (colours of {{ }} and its variables in the default dark and light themes), driven through
// the helpers of vscode-e2e.mjs.
import * as path from "node:path";

// tokenColours lists the rendered tokens of the editor showing `file` (Monaco's .mtkN spans) with their
// class and computed colour, line by line.
async function tokenColours(page, file) {
  return page.evaluate((file) => {
    const out = [];
    for (const ed of document.querySelectorAll(".editor-instance")) {
      const label = ed.closest(".editor-group-container")?.querySelector(".tab.active")?.getAttribute("aria-label") || "";
      if (!label.includes(file)) continue;
      for (const line of ed.querySelectorAll(".view-lines .view-line")) {
        for (const span of line.querySelectorAll("span[class*='mtk']")) {
          out.push({ text: span.textContent.replace(/\u00a0/g, " "), cls: span.className, colour: getComputedStyle(span).color });
        }
      }
    }
    return out;
  }, file);
}

// checkHighlighting asserts that in the recipe's prompt `{{` and `topic` are tokens of their own (their Monaco
// class) coloured apart from the YAML string around them, and returns the colours seen.
async function checkHighlighting(page, theme, step, notString = "") {
  const end = Date.now() + 20000;
  let last = [];
  while (Date.now() < end) {
    last = await tokenColours(page, "write.yaml");
    // the prompt line: "Write about {{ topic }} in notes.txt" (bracket-pair colouring splits {{ into two {)
    const i = last.findIndex((t) => t.text.includes("Write about"));
    const str = last[i];
    const open = last[i + 1];
    const variable = last.slice(i + 1, i + 6).find((t) => t.text.trim() === "topic");
    const base = (t) => t.cls.split(" ")[0];
    if (str && str.colour !== notString && open && variable && open.text.startsWith("{") && base(open) !== base(str) && open.colour !== str.colour &&
        base(variable) !== base(str) && variable.colour !== str.colour) {
      step(`${theme}: string ${str.colour} (${str.cls}), { ${open.colour} (${open.cls}), topic ${variable.colour} (${variable.cls})`);
      return { string: str.colour, delimiter: open.colour, variable: variable.colour };
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`${theme}: template syntax is not highlighted; tokens: ${JSON.stringify(last.slice(0, 40))}`);
}

/** previewAndHighlighting runs with recipes/write.yaml (declaring topic) the active editor. */
export async function previewAndHighlighting({ page, palette, openFile, step, shots }) {
  step("template highlighting in the default dark theme (set in the settings from the start)");
  await page.keyboard.press("Control+End"); // the cursor off the template, so no bracket or word highlight covers it
  const dark = await checkHighlighting(page, "Dark Modern", step);
  await page.screenshot({ path: path.join(shots, "7-highlight-dark.png") });

  step("render preview beside the recipe");
  await palette("goose: Open Preview");
  const previewTab = page.locator(".tab", { hasText: "write (rendered).yaml" }).first();
  await previewTab.waitFor({ timeout: 20000 });
  const previewGroup = page.locator(".editor-group-container", { has: page.locator(".tab.active", { hasText: "write (rendered).yaml" }) }).first();
  const previewText = async () => (await previewGroup.locator(".view-lines").first().innerText()).replace(/\u00a0/g, " ");
  const waitPreview = async (what, pred, ms = 30000) => {
    const end = Date.now() + ms;
    let last = "";
    while (Date.now() < end) {
      last = await previewText().catch(() => "");
      if (pred(last)) return last;
      await page.waitForTimeout(250);
    }
    throw new Error(`${what}; the preview shows:\n${last}`);
  };
  // goose.previewValues gives topic=agents
  await waitPreview("the preview did not render the prompt", (t) => t.includes("Write about agents in notes.txt"));

  step("typing into the recipe re-renders the preview");
  const recipeGroup = page.locator(".editor-group-container", { has: page.locator(".tab.active", { hasText: "write.yaml" }) }).first();
  await recipeGroup.locator(".view-lines").first().click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type('\ninstructions: "Be brief about {{ topic | upper }}"', { delay: 15 });
  await waitPreview("the preview did not follow the edit", (t) => t.includes("Be brief about AGENTS"));
  await page.keyboard.press("Home"); // the recipe's start in view for the screenshots
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(shots, "8-preview-after-typing.png") });
  await page.keyboard.press("Control+S");

  step("template highlighting in the default light theme");
  // the theme picker would query the marketplace: toggle to the preferred light theme (Light Modern)
  await palette("Preferences: Toggle between Light/Dark Themes");
  const light = await checkHighlighting(page, "Light Modern", step, dark.string);
  await page.screenshot({ path: path.join(shots, "9-highlight-light.png") });
  await palette("Preferences: Toggle between Light/Dark Themes");
  await checkHighlighting(page, "Dark Modern again", step, light.string);

  // back to one editor group for the steps that follow
  await palette("View: Close All Editors");
  await page.locator(".tab").first().waitFor({ state: "detached", timeout: 10000 });
  await openFile("notes.txt");
  await openFile("recipes/write.yaml");
}
