// goose: Open Preview — a read-only virtual document (goose-preview:) beside the recipe holding what
// goose's template engine renders (goose.render), re-rendered as the user types (debounced), with the
// parameters' defaults overridden by the goose.previewValues setting.
import * as vscode from "vscode";
import { GooseServer } from "./server";
import { Debouncer, PREVIEW_SCHEME, RenderResult, previewPath, previewQuery, previewText, previewValues, sourceOf } from "./lib/preview";

const DEBOUNCE_MS = 300;

class PreviewProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly debouncers = new Map<string, Debouncer>();

  constructor(private readonly server: GooseServer) {}

  /** previewUri is the preview document of a recipe. */
  static previewUri(recipe: vscode.Uri): vscode.Uri {
    return vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: previewPath(recipe.path), query: previewQuery(recipe.toString()) });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const source = sourceOf(uri.query);
    if (!source) return "# goose: this preview has no recipe\n";
    const values = previewValues(vscode.workspace.getConfiguration("goose").get("previewValues"));
    try {
      const res = await this.server.command<RenderResult>("goose.render", { uri: source, values });
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === source);
      // the server answered for an older buffer than the one on screen: render again shortly
      if (doc && res.version < doc.version) this.schedule(source);
      return previewText(res, uri.path.endsWith(".json") ? "//" : "#");
    } catch (e) {
      return `# goose: ${e instanceof Error ? e.message : String(e)}\n`;
    }
  }

  /** schedule re-renders the previews of a recipe once its text has been still for a moment. */
  schedule(source: string): void {
    let d = this.debouncers.get(source);
    if (!d) {
      d = new Debouncer(DEBOUNCE_MS, () => this.refresh(source));
      this.debouncers.set(source, d);
    }
    d.schedule();
  }

  /** refresh tells VS Code the open previews of a recipe (or of every recipe) changed. */
  refresh(source?: string): void {
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme !== PREVIEW_SCHEME) continue;
      if (source === undefined || sourceOf(doc.uri.query) === source) this.changed.fire(doc.uri);
    }
  }

  hasPreview(source: string): boolean {
    return vscode.workspace.textDocuments.some((d) => d.uri.scheme === PREVIEW_SCHEME && sourceOf(d.uri.query) === source);
  }

  dispose(): void {
    for (const d of this.debouncers.values()) d.dispose();
    this.changed.dispose();
  }
}

export function registerPreview(ctx: vscode.ExtensionContext, server: GooseServer): void {
  const provider = new PreviewProvider(server);
  ctx.subscriptions.push(
    provider,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, provider),
    vscode.workspace.onDidChangeTextDocument((e) => {
      const source = e.document.uri.toString();
      if (e.document.uri.scheme === "file" && provider.hasPreview(source)) provider.schedule(source);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("goose.previewValues")) provider.refresh();
    }),
    vscode.commands.registerCommand("goose.vscode.openPreview", async (arg?: vscode.Uri) => {
      const recipe = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
      if (!recipe || recipe.scheme !== "file") {
        void vscode.window.showErrorMessage("goose: open a recipe first");
        return;
      }
      const doc = await vscode.workspace.openTextDocument(PreviewProvider.previewUri(recipe));
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: true });
    }),
  );
}
