// Unit tests of the extension's pure modules (no vscode API): recipe detection, server lookup, the
// restart policy, parameter questions and the transcript.
import { test } from "node:test";
import * as assert from "node:assert/strict";
import { looksLikeRecipe } from "../lib/recipeDetect";
import { findServer, bundledName } from "../lib/serverPath";
import { RestartPolicy } from "../lib/restartPolicy";
import { questions, validateDate, validateNumber } from "../lib/parameters";
import { render, RunLog } from "../lib/transcript";
import { runEvent } from "./support/fixtures";

test("recipe detection follows the server's rules", () => {
  assert.equal(looksLikeRecipe("/w/x.recipe.yaml", ""), true);
  assert.equal(looksLikeRecipe("/w/recipes/a.yml", "title: T\n"), true);
  assert.equal(looksLikeRecipe("/w/recipes/a.yml", "name: x\n"), false);
  assert.equal(looksLikeRecipe("/w/a.yaml", "title: T\ndescription: D\nprompt: p\n"), true);
  assert.equal(looksLikeRecipe("/w/a.yaml", "title: T\ndescription: D\n"), false);
  assert.equal(looksLikeRecipe("/w/a.json", '{"title":"T","description":"D","instructions":"i"}'), true);
  assert.equal(looksLikeRecipe("/w/docker-compose.yaml", "services:\n  title: x\n"), false);
  assert.equal(looksLikeRecipe("/w/a.md", "title: T\ndescription: D\nprompt: p\n"), false);
  assert.equal(looksLikeRecipe("C:\\w\\recipes\\a.yaml", "title: T\n"), true);
});

test("server lookup: setting, then bundled, then PATH, else a fix", () => {
  const exists = (files: string[]) => ({ isExecutable: (f: string) => files.includes(f) });
  const base = { extensionDir: "/ext", platform: "linux", arch: "x64", pathEnv: "/usr/bin:/opt/bin" };
  assert.deepEqual(findServer({ ...base, setting: "/my/goose-ls", probe: exists(["/my/goose-ls", "/ext/bin/linux-x64/goose-ls"]) }), { path: "/my/goose-ls", source: "setting" });
  const bad = findServer({ ...base, setting: "/nope", probe: exists(["/ext/bin/linux-x64/goose-ls"]) });
  assert.ok("error" in bad && bad.error.includes("/nope"));
  assert.deepEqual(findServer({ ...base, setting: "", probe: exists(["/ext/bin/linux-x64/goose-ls", "/opt/bin/goose-ls"]) }), { path: "/ext/bin/linux-x64/goose-ls", source: "bundled" });
  assert.deepEqual(findServer({ ...base, setting: "", probe: exists(["/opt/bin/goose-ls"]) }), { path: "/opt/bin/goose-ls", source: "PATH" });
  const none = findServer({ ...base, setting: " ", probe: exists([]) });
  assert.ok("error" in none && none.error.includes("go install") && none.error.includes("linux-x64"));
  assert.equal(bundledName("win32", "arm64"), "bin/win32-arm64/goose-ls.exe");
});

test("restart policy gives up after the limit within the window", () => {
  const p = new RestartPolicy(2, 1000);
  assert.equal(p.onCrash(0), true);
  assert.equal(p.onCrash(10), true);
  assert.equal(p.onCrash(20), false);
  assert.equal(p.onCrash(5000), true); // the window moved on
  p.reset();
  assert.equal(p.onCrash(5001), true);
});

test("parameter questions: widget per input type, defaults prefilled, only what is missing", () => {
  const qs = questions(
    [
      { key: "name", input_type: "string", requirement: "required" },
      { key: "lang", input_type: "select", requirement: "required", options: ["go", "rust"] },
      { key: "dry", input_type: "boolean", requirement: "user_prompt", default: "false" },
      { key: "input", input_type: "file", requirement: "required" },
      { key: "n", input_type: "number", requirement: "user_prompt", default: "3" },
      { key: "day", input_type: "date", requirement: "required" },
      { key: "opt", input_type: "string", requirement: "optional", default: "x" },
      { key: "given", input_type: "string", requirement: "required" },
    ],
    { given: "yes" },
  );
  assert.deepEqual(qs.map((q) => `${q.key}:${q.widget}`), ["name:input", "lang:pick", "dry:pick", "input:file", "n:input", "day:input"]);
  const lang = qs[1];
  assert.ok(lang.widget === "pick" && lang.items.join() === "go,rust");
  const dry = qs[2];
  assert.ok(dry.widget === "pick" && dry.preselect === "false" && dry.items.join() === "true,false");
  const n = qs[4];
  assert.ok(n.widget === "input" && n.value === "3" && n.validate("x") !== undefined && n.validate("4.5") === undefined);
  const name = qs[0];
  assert.ok(name.widget === "input" && name.validate("  ") !== undefined);
  assert.equal(validateDate("2026-02-30"), "Not a calendar date");
  assert.equal(validateDate("2026-02-28"), undefined);
  assert.equal(validateDate("28/02/2026"), "Enter a date as YYYY-MM-DD");
  assert.equal(validateNumber(""), "Enter a number");
});

test("transcript rendering and the run log", () => {
  // the events are the shared fixtures (agent/host/testdata/runevents)
  assert.equal(render(runEvent("text", 2)), "Hel");
  assert.equal(render(runEvent("toolStart", 1)), "\n▸ edit a.txt\n");
  assert.equal(render(runEvent("toolEnd", 1)), "[sub]   ✗ ok\n");
  assert.equal(render(runEvent("finalOutput")), '\nfinal output: {"a":1}\n');
  assert.equal(render(runEvent("done")), "\n=== completed ===\n");
  const log = new RunLog();
  log.started("run-1");
  assert.deepEqual(log.running(), ["run-1"]);
  for (const ev of [runEvent("edit", 0), runEvent("edit", 1), runEvent("edit", 3)]) log.record(ev);
  assert.deepEqual(log.running(), ["run-1"]);
  log.record(runEvent("done"));
  assert.deepEqual(log.running(), []);
  assert.deepEqual(log.popTurn(), { runId: "run-1", turn: 3 });
  assert.deepEqual(log.popTurn(), { runId: "run-1", turn: 1 });
  assert.equal(log.popTurn(), undefined);
});

import { apiKeyVariable, serverEnv } from "../lib/providerEnv";

test("provider settings and the API key reach the server's environment", () => {
  assert.equal(apiKeyVariable("openai"), "OPENAI_API_KEY");
  assert.equal(apiKeyVariable("Anthropic"), "ANTHROPIC_API_KEY");
  assert.equal(apiKeyVariable("ollama"), "");
  assert.equal(apiKeyVariable("my-vendor"), "MY_VENDOR_API_KEY");
  assert.equal(apiKeyVariable("scaleway"), "SCW_SECRET_KEY"); // goose 1.38 declarative providers name their own
  assert.equal(apiKeyVariable("zai"), "ZHIPU_API_KEY");
  assert.equal(apiKeyVariable("groq"), "GROQ_API_KEY");
  const env = serverEnv({ PATH: "/bin", GOOSE_PROVIDER: "anthropic" }, { provider: "", model: "m1", mode: "approve" }, "sk-1");
  assert.deepEqual(env, { PATH: "/bin", GOOSE_PROVIDER: "anthropic", GOOSE_MODEL: "m1", GOOSE_MODE: "approve", ANTHROPIC_API_KEY: "sk-1" });
  const plain = serverEnv({ PATH: "/bin" }, { provider: "openai", model: "", mode: "" }, undefined);
  assert.deepEqual(plain, { PATH: "/bin", GOOSE_PROVIDER: "openai" });
});
