// The official TypeScript SDK's client (@agentclientprotocol/sdk) against the built `goose-ls acp`: the
// exact update sequence of a write and an edit, their diffs, and session/load's replay. Run by
// acp_sdk_test.go with node --test (GOOSE_LS_BIN, ACP_SDK_DIR, the scripted provider's environment).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";

const acp = await import(pathToFileURL(join(process.env.ACP_SDK_DIR, "dist/v1/stable/acp.js")).href);
const { client, methods, ndJsonStream, PROTOCOL_VERSION } = acp;

// connect starts goose-ls acp and runs op with a client that edits files on disk and allows every tool.
async function connect(cwd, op) {
  const proc = spawn(process.env.GOOSE_LS_BIN, ["acp"], { cwd, stdio: ["pipe", "pipe", "inherit"] });
  const stream = ndJsonStream(Writable.toWeb(proc.stdin), Readable.toWeb(proc.stdout));
  const updates = [];
  const calls = [];
  const app = client({ name: "goose-ls-e2e" })
    .onNotification(methods.client.session.update, async ({ params }) => {
      updates.push(params);
    })
    .onRequest(methods.client.fs.readTextFile, async ({ params }) => {
      calls.push(["fs/read_text_file", params.path]);
      return { content: readFileSync(params.path, "utf8") };
    })
    .onRequest(methods.client.fs.writeTextFile, async ({ params }) => {
      calls.push(["fs/write_text_file", params.path]);
      mkdirSync(dirname(params.path), { recursive: true });
      writeFileSync(params.path, params.content);
      return {};
    })
    .onRequest(methods.client.session.requestPermission, async () => ({
      outcome: { outcome: "selected", optionId: "allow_once" },
    }));
  try {
    return await app.connectWith(stream, async (ctx) => {
      const init = await ctx.request(methods.agent.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
        clientInfo: { name: "goose-ls-e2e", version: "1" },
      });
      return await op(ctx, { init, updates, calls });
    });
  } finally {
    proc.kill();
  }
}

// kind names an update for the sequence: tool calls with their status.
function kind(u) {
  const k = u.update.sessionUpdate;
  return u.update.status ? `${k}:${u.update.status}` : k;
}

test("a write and an edit: exact updates, diffs, then session/load replays the session", async () => {
  const cwd = mkdtempSync(join(tmpdir(), "goose-acp-sdk-"));
  let sessionId;
  await connect(cwd, async (ctx, { init, updates, calls }) => {
    assert.equal(init.protocolVersion, 1);
    assert.equal(init.agentCapabilities.loadSession, true);
    const session = await ctx.request(methods.agent.session.new, { cwd, mcpServers: [] });
    sessionId = session.sessionId;
    assert.deepEqual(session.modes.availableModes.map((m) => m.id), ["auto", "approve", "smart_approve", "chat"]);
    const res = await ctx.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "write the notes" }],
    });
    assert.equal(res.stopReason, "end_turn");

    const seq = updates
      .filter((u) => u.update.sessionUpdate !== "available_commands_update")
      .map(kind);
    assert.deepEqual(seq, [
      "agent_thought_chunk", // goose's default profile: the extensions goose-ls leaves out
      "usage_update",
      "tool_call:in_progress",
      "tool_call_update:completed",
      "usage_update",
      "tool_call:in_progress",
      "tool_call_update:completed",
      "agent_message_chunk",
      "agent_message_chunk",
      "usage_update",
    ]);
    const notes = join(cwd, "notes.md");
    const [write, , edit] = updates.filter((u) => u.update.sessionUpdate.startsWith("tool_call")).map((u) => u.update);
    assert.equal(write.title, "developer: write · notes.md");
    assert.equal(write.kind, "edit");
    assert.deepEqual(write.locations, [{ path: notes }]);
    const done = updates.filter((u) => u.update.sessionUpdate === "tool_call_update").map((u) => u.update);
    assert.deepEqual(done[0].content[0], { type: "diff", path: notes, newText: "alpha\nbeta\n" });
    assert.deepEqual(done[1].content[0], { type: "diff", path: notes, oldText: "alpha\nbeta\n", newText: "alpha\ngamma\n" });
    assert.equal(edit.title, "developer: edit · notes.md");
    assert.deepEqual(done[1].locations, [{ path: notes, line: 2 }]);
    assert.deepEqual(calls, [
      ["fs/write_text_file", notes],
      ["fs/read_text_file", notes],
      ["fs/write_text_file", notes],
    ]);
    assert.equal(readFileSync(notes, "utf8"), "alpha\ngamma\n");
    const text = updates.filter((u) => u.update.sessionUpdate === "agent_message_chunk").map((u) => u.update.content.text).join("");
    assert.equal(text, "Notes edited.");

    const listed = await ctx.request(methods.agent.session.list, { cwd });
    assert.deepEqual(listed.sessions.map((s) => s.sessionId), [sessionId]);
  });

  // a new process loads the stored session: the conversation comes back as updates
  await connect(cwd, async (ctx, { updates }) => {
    await ctx.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    const seq = updates.filter((u) => u.update.sessionUpdate !== "available_commands_update").map(kind);
    assert.deepEqual(seq, [
      "user_message_chunk",
      "tool_call:in_progress",
      "tool_call_update:completed",
      "tool_call:in_progress",
      "tool_call_update:completed",
      "agent_message_chunk",
    ]);
    assert.equal(updates[0].update.content.text, "write the notes");
    const last = updates.filter((u) => u.update.sessionUpdate === "agent_message_chunk").at(-1);
    assert.equal(last.update.content.text, "Notes edited.");
    await ctx.request(methods.agent.session.close, { sessionId });
  });
});
