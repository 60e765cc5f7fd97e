// goose's own ACP dialect driven by the official TypeScript SDK's client (@agentclientprotocol/sdk)
// against the built `goose-ls acp`: the recipe library through _goose/unstable/recipes/list, a recipe
// session by recipeId whose parameters the client fills through goose's request-params (answered once,
// cancelled once), and the rendered recipe's run. Run by acp_goose_test.go with node --test
// (GOOSE_LS_BIN, ACP_SDK_DIR, GREET_PATH, GREET_ID and the scripted provider's environment).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";

const acp = await import(pathToFileURL(join(process.env.ACP_SDK_DIR, "dist/v1/stable/acp.js")).href);
const { client, methods, ndJsonStream, PROTOCOL_VERSION, RequestError } = acp;

const REQUEST_PARAMS = "_goose/unstable/session/recipe/request-params";

// connect starts goose-ls acp as a client that opted in to goose's recipe parameter requests; answer
// decides each request's reply.
async function connect(cwd, answer, op) {
  const proc = spawn(process.env.GOOSE_LS_BIN, ["acp"], { cwd, stdio: ["pipe", "pipe", "inherit"] });
  const stream = ndJsonStream(Writable.toWeb(proc.stdin), Readable.toWeb(proc.stdout));
  const asked = [];
  const updates = [];
  const app = client({ name: "goose-ls-e2e-goose" })
    .onNotification(methods.client.session.update, async ({ params }) => {
      updates.push(params);
    })
    .onRequest(REQUEST_PARAMS, (p) => p, async ({ params }) => {
      asked.push(params);
      return answer(params);
    });
  try {
    return await app.connectWith(stream, async (ctx) => {
      await ctx.request(methods.agent.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: { _meta: { goose: { recipeParameterRequests: true } } },
        clientInfo: { name: "goose-ls-e2e-goose", version: "1" },
      });
      return await op(ctx, { asked, updates });
    });
  } finally {
    proc.kill();
  }
}

test("recipes/list, then a recipe session by recipeId: parameters cancelled once, answered once, run", async () => {
  const cwd = mkdtempSync(join(tmpdir(), "goose-acp-goose-"));
  let answers = [{ action: "cancel" }, { action: "submit", values: { name: "Ada" } }];
  await connect(cwd, () => answers.shift(), async (ctx, { asked, updates }) => {
    const listed = await ctx.request("_goose/unstable/recipes/list", {});
    const greet = listed.recipes.find((r) => r.file_path === process.env.GREET_PATH);
    assert.ok(greet, JSON.stringify(listed));
    assert.equal(greet.id, process.env.GREET_ID);
    assert.match(greet.id, /^[0-9a-f]{16}$/);
    assert.match(greet.last_modified, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/);
    assert.equal(greet.recipe.title, "Greeter");
    assert.equal(greet.recipe.prompt, "Say hello to {{ name }}");
    assert.deepEqual(greet.recipe.parameters, [
      { key: "name", input_type: "string", requirement: "required", description: "who" },
      { key: "tone", input_type: "select", requirement: "optional", description: "how", default: "warm", options: ["warm", "dry"] },
    ]);

    // cancelled: goose's invalid params with its reason, and no session left behind
    await assert.rejects(
      ctx.request(methods.agent.session.new, { cwd, mcpServers: [], _meta: { recipeId: greet.id, recipeParameterScopeId: "form-1" } }),
      (err) => {
        assert.ok(err instanceof RequestError, String(err));
        assert.equal(err.code, -32602);
        assert.deepEqual(err.data, { reason: "recipe_params_cancelled" });
        return true;
      },
    );
    assert.equal(asked.length, 1);
    assert.equal(asked[0].parameterScopeId, "form-1");
    assert.match(asked[0].sessionId, /^\d{8}_\d+$/); // a stored session's id: goose creates the session first
    assert.deepEqual(asked[0].parameters, greet.recipe.parameters);
    const none = await ctx.request(methods.agent.session.list, { cwd });
    assert.deepEqual(none.sessions, []);

    // answered: the session holds the rendered recipe and the values given
    const session = await ctx.request(methods.agent.session.new, { cwd, mcpServers: [], _meta: { recipeId: greet.id } });
    assert.equal(asked.length, 2);
    assert.equal(asked[1].parameterScopeId, undefined);
    assert.equal(asked[1].sessionId, session.sessionId);
    assert.equal(session._meta.recipe.instructions, "You greet Ada in a warm tone.");
    assert.equal(session._meta.recipe.prompt, "Say hello to Ada");
    assert.deepEqual(session._meta.userRecipeValues, { name: "Ada" });
    assert.equal(session._meta.workingDir, cwd);
    assert.deepEqual(session.configOptions.map((o) => o.id), ["provider", "mode", "model"]);

    const res = await ctx.request(methods.agent.session.prompt, {
      sessionId: session.sessionId,
      prompt: [{ type: "text", text: session._meta.recipe.prompt }],
    });
    assert.equal(res.stopReason, "end_turn");
    const text = updates
      .filter((u) => u.sessionId === session.sessionId && u.update.sessionUpdate === "agent_message_chunk")
      .map((u) => u.update.content.text)
      .join("");
    assert.equal(text, "Hello, Ada!");
    const listedSessions = await ctx.request(methods.agent.session.list, { cwd });
    assert.deepEqual(listedSessions.sessions.map((s) => [s.sessionId, s.title]), [[session.sessionId, "Greeter"]]);
  });
});
