// Unit tests of the goose view's state and HTML: events folded into runs, tool calls paired with their
// results, the files of each turn, approvals and sessions, and escaping of everything the server sends.
import { test } from "node:test";
import * as assert from "node:assert/strict";
import { ViewState, renderView } from "../lib/runView";
import { isApproval, turnOfAnnotation } from "../lib/approvals";
import { runEvent } from "./support/fixtures";

// sample folds the shared fixtures (agent/host/testdata/runevents) of one run: a start, streamed text, an
// edit call and its result, three edits of turn 1, the session.
function sample(): ViewState {
  const s = new ViewState();
  for (const ev of [
    runEvent("start"),
    runEvent("text", 0),
    runEvent("text", 1),
    runEvent("toolStart", 0),
    runEvent("toolEnd", 0),
    runEvent("edit", 0),
    runEvent("edit", 1),
    runEvent("edit", 2),
    runEvent("session"),
  ]) s.apply(ev);
  return s;
}

test("events fold into one run: text joined, tool paired with its result, one turn block per turn", () => {
  const s = sample();
  assert.equal(s.runs.length, 1);
  const r = s.runs[0];
  assert.equal(r.title, "Writer");
  assert.equal(r.sessionId, "20260101_1");
  assert.deepEqual(r.items.map((i) => i.kind), ["text", "tool", "turn"]);
  assert.deepEqual(r.items[0], { kind: "text", agent: "", text: "I will **edit** notes.txt" });
  const tool = r.items[1];
  assert.ok(tool.kind === "tool" && tool.call.result === "edited notes.txt" && tool.call.isError === false);
  assert.deepEqual(s.turn("run-1", 1)?.files, [{ path: "/w/notes.txt", created: false }, { path: "/w/new.md", created: true }]);
  assert.equal(r.status, undefined);
  s.apply(runEvent("done"));
  assert.equal(r.status, "completed");
});

test("the HTML has the view's controls: cancel while running, review per file, undo per turn", () => {
  const html = renderView(sample());
  assert.match(html, /<button data-action="cancel" data-run="run-1">Cancel<\/button>/);
  assert.match(html, /<button data-action="review" data-run="run-1" data-turn="1" data-path="\/w\/notes.txt">Review<\/button>/);
  assert.match(html, /<button data-action="undo" data-run="run-1" data-turn="1">Undo turn<\/button>/);
  assert.match(html, /<details class="tool" id="tool-run-1-1"><summary><span class="tool-name">edit<\/span> <span class="target">notes.txt<\/span> <span class="ok">✓<\/span>/);
  assert.match(html, /<p>I will <strong>edit<\/strong> notes.txt<\/p>/);
  assert.match(html, /<span class="path" title="\/w\/new.md">\/w\/new.md<\/span> \(new\)/);
  assert.match(renderView(sample(), { label: (p) => p.replace("/w/", "") }), /<span class="path" title="\/w\/notes.txt">notes.txt<\/span> <button/);
  const s = sample();
  s.turn("run-1", 1)!.undone = true;
  s.apply(runEvent("done"));
  const after = renderView(s);
  assert.doesNotMatch(after, /Undo turn|Cancel/);
  assert.match(after, /<span class="undone">undone<\/span>/);
});

test("approvals are inline buttons in the server's order, the first one primary", () => {
  const s = new ViewState();
  s.approvals.push({ id: 7, message: "goose wants to run shell rm -rf <b>x</b>", actions: ["Allow once", "Allow for this run", "Deny"] });
  const html = renderView(s);
  assert.match(html, /role="alertdialog"/);
  assert.match(html, /rm -rf &lt;b&gt;x&lt;\/b&gt;/);
  assert.match(html, /<button class="primary" data-action="answer" data-id="7" data-title="Allow once">Allow once<\/button> <button data-action="answer" data-id="7" data-title="Allow for this run">Allow for this run<\/button> <button data-action="answer" data-id="7" data-title="Deny">Deny<\/button>/);
});

test("nothing from the server becomes markup: titles, tool names, arguments, results, paths, sessions", () => {
  const s = new ViewState();
  const evil = `"><img src=x onerror=alert(1)>`;
  s.apply({ runId: evil, kind: "start", title: evil });
  s.apply({ runId: evil, kind: "toolStart", tool: evil, callId: "1", arguments: { path: evil } });
  s.apply({ runId: evil, kind: "toolEnd", tool: evil, callId: "1", result: evil, isError: true });
  s.apply({ runId: evil, kind: "edit", path: evil, turn: 2 });
  s.apply({ runId: evil, kind: "error", text: evil });
  s.apply({ runId: evil, kind: "done", status: evil });
  s.sessions = [{ id: evil, name: evil, updatedAt: evil, messages: 1 }];
  const html = renderView(s);
  assert.doesNotMatch(html, /<img/);
  assert.doesNotMatch(html, /"><img/);
  assert.match(html, /&quot;&gt;&lt;img src=x onerror=alert\(1\)&gt;/);
});

test("a huge tool result is cut for the view", () => {
  const s = new ViewState();
  s.apply({ runId: "r", kind: "toolStart", tool: "read", callId: "1", arguments: {} });
  s.apply({ runId: "r", kind: "toolEnd", tool: "read", callId: "1", result: "x".repeat(100_000) });
  const t = s.runs[0].items[0];
  assert.ok(t.kind === "tool" && t.call.result!.length < 20_010 && t.call.result!.endsWith("…"));
});

test("approval questions and turn annotations are recognised", () => {
  assert.equal(isApproval(["Allow once", "Allow for this run", "Deny"]), true);
  assert.equal(isApproval(["Run", "Cancel"]), false);
  assert.deepEqual(turnOfAnnotation("goose:run-3:turn-12"), { runId: "run-3", turn: 12 });
  assert.equal(turnOfAnnotation("goose:run-3"), undefined);
  assert.equal(turnOfAnnotation("other:run-3:turn-1"), undefined);
});

test("the parameters form is shown above the runs, and replaces the empty-view hint", () => {
  const s = new ViewState();
  assert.match(renderView(s), /No run yet/);
  s.form = { uri: "file:///w/r.yaml", recipe: "r.yaml", params: [{ key: "topic", input_type: "string", requirement: "required" }], values: {}, errors: {} };
  const html = renderView(s);
  assert.doesNotMatch(html, /No run yet/);
  assert.match(html, /<form class="params" id="params-form" aria-label="Parameters of r.yaml"><h2>Run r.yaml<\/h2>/);
});
