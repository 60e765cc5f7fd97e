// Entry point: start goose-ls, register the commands, keep the goose.isRecipe context key current.
import * as vscode from "vscode";
import { GooseServer } from "./server";
import { registerCommands } from "./commands";
import { looksLikeRecipe } from "./lib/recipeDetect";

export async function activate(ctx: vscode.ExtensionContext): Promise<void> {
  const server = new GooseServer(ctx);
  ctx.subscriptions.push(server);
  registerCommands(ctx, server);
  const mark = (ed?: vscode.TextEditor) => {
    const doc = ed?.document;
    void vscode.commands.executeCommand("setContext", "goose.isRecipe", !!doc && looksLikeRecipe(doc.uri.fsPath, doc.getText()));
  };
  ctx.subscriptions.push(vscode.window.onDidChangeActiveTextEditor(mark));
  mark(vscode.window.activeTextEditor);
  await server.start();
}

export function deactivate(): void {}
