// Entry point: start goose-ls, register the commands, the render preview and the goose view, keep the
// goose.isRecipe context key current.
import * as vscode from "vscode";
import { GooseServer } from "./server";
import { registerCommands } from "./commands";
import { registerPreview } from "./preview";
import { GooseView } from "./view";
import { looksLikeRecipe } from "./lib/recipeDetect";

export async function activate(ctx: vscode.ExtensionContext): Promise<void> {
  const server = new GooseServer(ctx);
  ctx.subscriptions.push(server);
  registerCommands(ctx, server);
  registerPreview(ctx, server);
  const view = new GooseView(ctx, server);
  server.hooks = view;
  ctx.subscriptions.push(view);
  const mark = (ed?: vscode.TextEditor) => {
    const doc = ed?.document;
    void vscode.commands.executeCommand("setContext", "goose.isRecipe", !!doc && looksLikeRecipe(doc.uri.fsPath, doc.getText()));
  };
  ctx.subscriptions.push(vscode.window.onDidChangeActiveTextEditor(mark));
  mark(vscode.window.activeTextEditor);
  await server.start();
}

export function deactivate(): void {}
