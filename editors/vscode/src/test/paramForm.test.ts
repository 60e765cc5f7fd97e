// Unit tests of the view's parameters form: checks, values sent, and the fields' HTML.
import { test } from "node:test";
import * as assert from "node:assert/strict";
import { formErrors, formValues, renderForm } from "../lib/paramForm";
import { RecipeParameter } from "../lib/parameters";

const params: RecipeParameter[] = [
  { key: "topic", input_type: "string", requirement: "required", description: "what to write about" },
  { key: "count", input_type: "number", requirement: "optional", default: "3" },
  { key: "when", input_type: "date", requirement: "user_prompt" },
  { key: "tone", input_type: "select", requirement: "required", options: ["dry", "warm"], default: "dry" },
  { key: "dry_run", input_type: "boolean", requirement: "optional", default: "false" },
];

test("checks: required values, numbers, dates, options; empty optional fields keep their default", () => {
  assert.deepEqual(formErrors(params, {}), { topic: "A value is required", when: "A value is required" });
  assert.deepEqual(formErrors(params, { topic: "x", when: "2026-02-30", count: "many", tone: "loud" }), {
    when: "Not a calendar date",
    count: "Enter a number",
    tone: "Pick one of the options",
  });
  assert.deepEqual(formErrors(params, { topic: "x", when: "2026-02-28", count: "", tone: "warm" }), {});
  assert.deepEqual(formValues({ topic: "x", count: " ", tone: "warm" }), { topic: "x", tone: "warm" });
});

test("fields: text prefilled with the default, lists for select and boolean, errors shown, all escaped", () => {
  const html = renderForm({ uri: "file:///w/r.yaml", recipe: "r.yaml", params, values: { topic: '"><b>' }, errors: { topic: "A value is required" } });
  assert.match(html, /<input id="param-topic" name="topic" type="text" value="&quot;&gt;&lt;b&gt;" placeholder="">/);
  assert.match(html, /<div class="field-error" role="alert">A value is required<\/div>/);
  assert.match(html, /<input id="param-count" name="count" type="number" value="3" placeholder="3">/);
  assert.match(html, /<input id="param-when" name="when" type="date" value="" placeholder="">/);
  assert.match(html, /<select id="param-tone" name="tone"><option value="">\(default\)<\/option><option value="dry" selected>dry<\/option><option value="warm">warm<\/option><\/select>/);
  assert.match(html, /<select id="param-dry_run" name="dry_run"><option value="">\(default\)<\/option><option value="true">true<\/option><option value="false" selected>false<\/option><\/select>/);
  assert.match(html, /<button class="primary" type="button" data-action="runForm" data-form="params-form">Run<\/button>/);
  assert.doesNotMatch(html, /<b>/);
});
