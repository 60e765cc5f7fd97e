// Unit tests of the render preview's pure parts: URIs, values from the setting, the preview text, debouncing.
import { test } from "node:test";
import * as assert from "node:assert/strict";
import { Debouncer, RenderResult, previewPath, previewQuery, previewText, previewValues, sourceOf } from "../lib/preview";

test("preview path keeps the extension (so the language follows) and names the render", () => {
  assert.equal(previewPath("/w/recipes/write.yaml"), "/w/recipes/write (rendered).yaml");
  assert.equal(previewPath("/w/a.b/recipe.json"), "/w/a.b/recipe (rendered).json");
  assert.equal(previewPath("/w/a.b/noext"), "/w/a.b/noext (rendered)");
  assert.equal(previewPath("/w/.hidden"), "/w/.hidden (rendered)");
});

test("the recipe URI survives the preview query, reserved characters included", () => {
  const src = "file:///w/my%20recipes/a&b=c.yaml";
  assert.equal(sourceOf(previewQuery(src)), src);
  assert.equal(sourceOf("other=1&" + previewQuery(src)), src);
  assert.equal(sourceOf("other=1"), undefined);
  assert.equal(sourceOf("source=%E0%A4%A"), undefined); // malformed escape
});

test("preview values: strings kept, numbers and booleans as text, everything else dropped", () => {
  assert.deepEqual(previewValues({ topic: "agents", n: 3, on: true, obj: { x: 1 }, nil: null }), { topic: "agents", n: "3", on: "true" });
  assert.deepEqual(previewValues(undefined), {});
  assert.deepEqual(previewValues(["a"]), {});
  assert.deepEqual(previewValues("topic=x"), {});
});

const ok: RenderResult = { uri: "file:///w/a.yaml", version: 3, text: "title: T\nprompt: about agents\n", yaml: "", values: { topic: "agents" }, missing: [], diagnostics: [] };

test("a successful render is shown as is", () => {
  assert.equal(previewText(ok), ok.text);
});

test("a stopped render says why, with 1-based recipe lines and codes", () => {
  const failed: RenderResult = {
    ...ok,
    text: "",
    missing: ["topic", "lang"],
    diagnostics: [
      { range: { start: { line: 4, character: 2 } }, message: "Please provide the following parameters\nmore", code: "RENDER-MISSING-VALUE" },
      { range: { start: { line: 9, character: 0 } }, message: "undefined value" },
    ],
  };
  assert.equal(
    previewText(failed),
    "# goose could not render this recipe:\n" +
      "#   missing values: topic, lang (give them in the goose.previewValues setting)\n" +
      "#   line 5: Please provide the following parameters [RENDER-MISSING-VALUE]\n" +
      "#   line 10: undefined value\n",
  );
  const invalid: RenderResult = { ...ok, diagnostics: [{ range: { start: { line: 0, character: 0 } }, message: "missing field `title`", code: "RENDER-INVALID-RECIPE" }] };
  assert.equal(previewText(invalid, "//"), "// goose could not render this recipe:\n//   line 1: missing field `title` [RENDER-INVALID-RECIPE]\n\n" + ok.text);
});

test("the debouncer runs once, after the last call", async () => {
  let runs = 0;
  let resolve!: () => void;
  const ran = new Promise<void>((r) => (resolve = r));
  const d = new Debouncer(20, () => {
    runs++;
    resolve();
  });
  d.schedule();
  d.schedule();
  d.schedule();
  assert.equal(d.pending(), true);
  await ran;
  assert.equal(runs, 1);
  assert.equal(d.pending(), false);
  d.schedule();
  d.dispose();
  assert.equal(d.pending(), false);
});
