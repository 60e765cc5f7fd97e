// The extension's commands: Run Recipe (asking for missing parameters), Run Recipe by Name, Ask about the selection,
// Cancel, Sessions / Resume, Undo last agent turn, Set API key, Show transcript, Restart.
import * as vscode from "vscode";
import { GooseServer, RUN_COMMAND, secretKey } from "./server";
import { Question, RecipeParameter, questions } from "./lib/parameters";
import { apiKeyVariable } from "./lib/providerEnv";
import { storeSecret } from "./lib/storeSecret";

interface Started {
  runId: string;
}

export function registerCommands(ctx: vscode.ExtensionContext, server: GooseServer): void {
  const reg = (id: string, fn: (...args: any[]) => unknown) =>
    ctx.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: any[]) => {
        try {
          await fn(...args);
        } catch (e) {
          void vscode.window.showErrorMessage(`goose: ${e instanceof Error ? e.message : String(e)}`);
        }
      }),
    );

  reg(RUN_COMMAND, async (arg?: { uri?: string } | vscode.Uri) => {
    const uri = arg instanceof vscode.Uri ? arg.toString() : arg?.uri ?? vscode.window.activeTextEditor?.document.uri.toString();
    if (!uri) throw new Error("open a recipe first");
    const params = await server.command<RecipeParameter[]>("goose.recipeParameters", { uri });
    const values: Record<string, string> = {};
    for (const q of questions(params ?? [], {})) {
      const v = await ask(q);
      if (v === undefined) return; // the user cancelled
      values[q.key] = v;
    }
    const res = await server.command<Started>("goose.runRecipe", { uri, params: values });
    started(server, res);
  });

  // Run Recipe by Name: the recipes goose finds by name from the workspace (goose recipe list), then the
  // same flow as Run Recipe on the chosen file
  reg("goose.vscode.runRecipeByName", async () => {
    const list = await server.command<{ name: string; uri: string; path: string; title?: string }[]>("goose.listRecipes");
    if (!list?.length) return void vscode.window.showInformationMessage("goose: no recipes in goose's recipe folders");
    const pick = await vscode.window.showQuickPick(
      list.map((r) => ({ label: r.name, description: r.title, detail: r.path, uri: r.uri })),
      { title: "Run a goose recipe", matchOnDescription: true },
    );
    if (pick) await vscode.commands.executeCommand(RUN_COMMAND, { uri: pick.uri });
  });

  reg("goose.vscode.ask", async () => {
    const ed = vscode.window.activeTextEditor;
    const prompt = await vscode.window.showInputBox({ title: "Ask goose", prompt: ed && !ed.selection.isEmpty ? "About the selection" : undefined, ignoreFocusOut: true });
    if (!prompt) return;
    const arg: Record<string, unknown> = { prompt };
    if (ed) {
      arg.uri = ed.document.uri.toString();
      if (!ed.selection.isEmpty) arg.range = { start: ed.selection.start, end: ed.selection.end };
    }
    started(server, await server.command<Started>("goose.ask", arg));
  });

  reg("goose.vscode.cancel", async () => {
    const running = server.log.running();
    const runId = running.length > 1 ? await vscode.window.showQuickPick(running, { title: "Cancel which run?" }) : running[0];
    if (!runId) return void vscode.window.showInformationMessage("goose: no run in progress");
    await server.command("goose.cancel", { runId });
  });

  reg("goose.vscode.sessions", async () => {
    const list = await server.command<{ id: string; name: string; updatedAt: string; messages: number }[]>("goose.listSessions");
    if (!list?.length) return void vscode.window.showInformationMessage("goose: no sessions yet");
    const pick = await vscode.window.showQuickPick(
      list.map((s) => ({ label: s.name || s.id, description: s.id, detail: `${s.messages} messages · ${s.updatedAt}`, id: s.id })),
      { title: "Resume a goose session" },
    );
    if (!pick) return;
    const prompt = await vscode.window.showInputBox({ title: `Resume ${pick.id}`, placeHolder: "Continue where you left off.", ignoreFocusOut: true });
    if (prompt === undefined) return;
    started(server, await server.command<Started>("goose.resume", { sessionId: pick.id, prompt }));
  });

  reg("goose.vscode.undo", async () => {
    const last = server.log.popTurn();
    if (!last) return void vscode.window.showInformationMessage("goose: no agent edits to undo");
    const res = await server.command<{ reverted: string[] }>("goose.undoTurn", last);
    void vscode.window.setStatusBarMessage(`goose: undid turn ${last.turn} (${res.reverted.length} files)`, 5000);
  });

  // Set API Key stores the key where goose keeps it (the system keyring, or secrets.yaml), so goose and
  // goose-ls share it; a key an older version kept in VS Code's secret storage is removed (it would shadow
  // the new one through the server's environment)
  reg("goose.vscode.setApiKey", async () => {
    const cfg = vscode.workspace.getConfiguration("goose");
    const provider = await vscode.window.showInputBox({ title: "Provider of the key", value: cfg.get<string>("provider", "") || process.env.GOOSE_PROVIDER || "openai" });
    if (!provider) return;
    const variable = apiKeyVariable(provider);
    if (!variable) return void vscode.window.showInformationMessage(`goose: provider ${provider} needs no API key`);
    const key = await vscode.window.showInputBox({ title: `API key for ${provider} (${variable})`, password: true, ignoreFocusOut: true });
    if (!key) return;
    const said = await storeSecret(server.binary(), variable, key);
    await ctx.secrets.delete(secretKey(provider));
    void vscode.window.showInformationMessage(`goose: ${said}`);
    await server.restart("API key changed");
  });

  reg("goose.vscode.showTranscript", () => server.transcript.show(true));
  reg("goose.vscode.restartServer", () => server.restart("requested"));
}

function started(server: GooseServer, res: Started): void {
  server.log.started(res.runId);
  server.updateStatus();
  server.transcript.show(true);
  void vscode.commands.executeCommand("goose.view.focus");
}

/** ask shows the widget a parameter's input type calls for; undefined means the user cancelled. */
async function ask(q: Question): Promise<string | undefined> {
  switch (q.widget) {
    case "pick": {
      const items = q.items.map((label) => ({ label, picked: label === q.preselect }));
      const pick = await vscode.window.showQuickPick(items, { title: q.title, ignoreFocusOut: true });
      return pick?.label;
    }
    case "file": {
      const files = await vscode.window.showOpenDialog({ title: q.title, canSelectMany: false });
      return files?.[0]?.fsPath;
    }
    case "input":
      return vscode.window.showInputBox({ title: q.title, value: q.value, validateInput: q.validate, ignoreFocusOut: true });
  }
}
