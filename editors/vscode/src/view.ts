// The goose view: a sidebar webview (strict Content-Security-Policy, local script and style only) showing
// each run as it streams — rendered Markdown, tool calls collapsed with arguments and result, approvals
// answered inline, the files each turn changed with Review (diff before ↔ now) and Undo turn — plus
// cancel, the session list with resume, and the parameters form of Run Recipe.
import * as crypto from "crypto";
import * as vscode from "vscode";
import type { ApplyWorkspaceEditParams, ApplyWorkspaceEditResult, MessageActionItem, ShowMessageRequestParams } from "vscode-languageclient/node";
import { GooseServer, ServerHooks } from "./server";
import { SessionInfo, ViewState, renderView } from "./lib/runView";
import { RunEvent } from "./lib/transcript";
import { isApproval, turnOfAnnotation } from "./lib/approvals";
import { formErrors, formValues } from "./lib/paramForm";
import { RecipeParameter } from "./lib/parameters";
import { looksLikeRecipe } from "./lib/recipeDetect";

export const VIEW_ID = "goose.view";
const BEFORE_SCHEME = "goose-before";

export class GooseView implements vscode.WebviewViewProvider, vscode.TextDocumentContentProvider, ServerHooks, vscode.Disposable {
  private view?: vscode.WebviewView;
  private readonly state = new ViewState();
  private readonly answers = new Map<number, (title: string | undefined) => void>();
  private nextApproval = 1;
  /** the text of each file before a turn first changed it: `${runId}|${turn}|${fsPath}` → text */
  private readonly before = new Map<string, string>();
  private renderTimer?: ReturnType<typeof setTimeout>;
  private edits: Promise<unknown> = Promise.resolve();
  private readonly disposables: vscode.Disposable[] = [];
  /** the recipe Run Recipe in the view runs: the last recipe editor that was active */
  private recipe?: vscode.Uri;

  constructor(
    private readonly ctx: vscode.ExtensionContext,
    private readonly server: GooseServer,
  ) {
    this.disposables.push(
      vscode.window.registerWebviewViewProvider(VIEW_ID, this, { webviewOptions: { retainContextWhenHidden: true } }),
      vscode.workspace.registerTextDocumentContentProvider(BEFORE_SCHEME, this),
      server.onEvent((ev) => this.onRunEvent(ev)),
      vscode.window.onDidChangeActiveTextEditor((ed) => this.noteRecipe(ed)),
    );
    this.noteRecipe(vscode.window.activeTextEditor);
  }

  private noteRecipe(ed?: vscode.TextEditor): void {
    const doc = ed?.document;
    if (doc?.uri.scheme === "file" && looksLikeRecipe(doc.uri.fsPath, doc.getText())) this.recipe = doc.uri;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const media = vscode.Uri.joinPath(this.ctx.extensionUri, "media");
    view.webview.options = { enableScripts: true, localResourceRoots: [media] };
    const nonce = crypto.randomBytes(16).toString("base64");
    const script = view.webview.asWebviewUri(vscode.Uri.joinPath(media, "view.js"));
    const style = view.webview.asWebviewUri(vscode.Uri.joinPath(media, "view.css"));
    const csp = `default-src 'none'; style-src ${view.webview.cspSource}; script-src 'nonce-${nonce}'; img-src ${view.webview.cspSource}; font-src ${view.webview.cspSource}`;
    view.webview.html =
      `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">` +
      `<meta http-equiv="Content-Security-Policy" content="${csp}">` +
      `<meta name="viewport" content="width=device-width, initial-scale=1.0">` +
      `<link rel="stylesheet" href="${style}"><title>goose</title></head>` +
      `<body><main id="goose-root"></main><script nonce="${nonce}" src="${script}"></script></body></html>`;
    view.webview.onDidReceiveMessage((m) => void this.onMessage(m).catch((e) => vscode.window.showErrorMessage(`goose: ${e instanceof Error ? e.message : String(e)}`)));
    view.onDidDispose(() => (this.view = undefined));
    this.render(true);
  }

  private onRunEvent(ev: RunEvent): void {
    this.state.apply(ev);
    this.render();
  }

  /** render sends the view its new body (coalescing bursts of streamed text). */
  private render(now = false): void {
    if (now && this.renderTimer) {
      clearTimeout(this.renderTimer);
      this.renderTimer = undefined;
    }
    if (this.renderTimer) return;
    const send = () => {
      this.renderTimer = undefined;
      void this.view?.webview.postMessage({ type: "render", html: renderView(this.state, { label: (p) => vscode.workspace.asRelativePath(p) }) });
    };
    if (now) send();
    else this.renderTimer = setTimeout(send, 50);
  }

  private async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
  }

  /** showMessageRequest answers the server's approvals in the view; other questions stay notifications. */
  async showMessageRequest(p: ShowMessageRequestParams, token: vscode.CancellationToken): Promise<MessageActionItem | null> {
    const actions = (p.actions ?? []).map((a) => a.title);
    if (!isApproval(actions)) {
      const show = p.type === 1 ? vscode.window.showErrorMessage : p.type === 2 ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
      return (await show(p.message, ...(p.actions ?? []))) ?? null;
    }
    const id = this.nextApproval++;
    this.state.approvals.push({ id, message: p.message, actions });
    const answer = new Promise<string | undefined>((resolve) => this.answers.set(id, resolve));
    const sub = token.onCancellationRequested(() => this.answer(id, undefined));
    this.render(true);
    await this.reveal();
    const title = await answer;
    sub.dispose();
    return title ? { title } : null;
  }

  private answer(id: number, title: string | undefined): void {
    this.state.approvals = this.state.approvals.filter((a) => a.id !== id);
    this.answers.get(id)?.(title);
    this.answers.delete(id);
    this.render(true);
  }

  /** applyEdit applies the agent's edits as the language client does (refused when a buffer moved on),
   * first keeping each file's text before the turn for Review. */
  applyEdit(p: ApplyWorkspaceEditParams): Promise<ApplyWorkspaceEditResult> {
    // one edit after the other, in the order the server sent them (as the language client does)
    const next = this.edits.then(() => this.applyOne(p));
    this.edits = next.catch(() => undefined);
    return next;
  }

  private async applyOne(p: ApplyWorkspaceEditParams): Promise<ApplyWorkspaceEditResult> {
    const client = this.server.client;
    if (!client) return { applied: false, failureReason: "goose-ls is not running" };
    const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
    for (const change of p.edit.documentChanges ?? []) {
      if ("textDocument" in change) {
        const uri = client.protocol2CodeConverter.asUri(change.textDocument.uri);
        const doc = open.get(uri.toString());
        if (doc && typeof change.textDocument.version === "number" && change.textDocument.version !== doc.version) return { applied: false };
        const ann = change.edits.map((e) => ("annotationId" in e ? turnOfAnnotation(String(e.annotationId)) : undefined)).find((t) => t);
        if (ann) await this.keepBefore(ann.runId, ann.turn, uri, doc);
      } else if (change.kind === "create" && change.annotationId) {
        const ann = turnOfAnnotation(String(change.annotationId));
        const key = ann && `${ann.runId}|${ann.turn}|${client.protocol2CodeConverter.asUri(change.uri).fsPath}`;
        if (key && !this.before.has(key)) this.before.set(key, "");
      }
    }
    const edit = await client.protocol2CodeConverter.asWorkspaceEdit(p.edit);
    return { applied: await vscode.workspace.applyEdit(edit) };
  }

  private async keepBefore(runId: string, turn: number, uri: vscode.Uri, doc?: vscode.TextDocument): Promise<void> {
    const key = `${runId}|${turn}|${uri.fsPath}`;
    if (this.before.has(key)) return;
    let text = doc?.getText();
    if (text === undefined) {
      try {
        text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      } catch {
        text = ""; // a file the turn creates
      }
    }
    this.before.set(key, text);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const q = new URLSearchParams(uri.query);
    return this.before.get(`${q.get("run")}|${q.get("turn")}|${vscode.Uri.file(uri.path).fsPath}`) ?? "";
  }

  /** openForm shows the parameters form of the last active recipe (or runs it when it has none). */
  private async openForm(): Promise<void> {
    const uri = this.recipe;
    if (!uri) throw new Error("open a recipe first");
    const params = (await this.server.command<RecipeParameter[]>("goose.recipeParameters", { uri: uri.toString() })) ?? [];
    if (params.length === 0) return this.run(uri.toString(), {});
    this.state.form = { uri: uri.toString(), recipe: vscode.workspace.asRelativePath(uri), params, values: {}, errors: {} };
    this.render(true);
  }

  private async run(uri: string, params: Record<string, string>): Promise<void> {
    const res = await this.server.command<{ runId: string }>("goose.runRecipe", { uri, params });
    this.server.log.started(res.runId);
    this.server.updateStatus();
  }

  private async onMessage(m: Record<string, string> & { values?: Record<string, string> }): Promise<void> {
    switch (m.action) {
      case "ready":
        return this.render(true);
      case "answer":
        return this.answer(Number(m.id), m.title);
      case "runRecipe":
        return this.openForm();
      case "runForm": {
        const form = this.state.form;
        if (!form) return;
        const values = Object.fromEntries(Object.entries(m.values ?? {}).filter(([k, v]) => typeof v === "string" && form.params.some((p) => p.key === k)));
        form.values = values;
        form.errors = formErrors(form.params, values);
        if (Object.keys(form.errors).length === 0) {
          this.state.form = undefined;
          await this.run(form.uri, formValues(values));
        }
        this.render(true);
        return;
      }
      case "closeForm":
        this.state.form = undefined;
        this.render(true);
        return;
      case "cancel":
        await this.server.command("goose.cancel", { runId: m.run });
        return;
      case "review": {
        const file = vscode.Uri.file(m.path);
        const before = vscode.Uri.from({ scheme: BEFORE_SCHEME, path: file.path, query: new URLSearchParams({ run: m.run, turn: m.turn }).toString() });
        const name = file.path.split("/").pop();
        await vscode.commands.executeCommand("vscode.diff", before, file, `${name} (before turn ${m.turn} ↔ now)`);
        return;
      }
      case "undo": {
        const turn = Number(m.turn);
        const res = await this.server.command<{ reverted: string[] }>("goose.undoTurn", { runId: m.run, turn });
        const t = this.state.turn(m.run, turn);
        if (t) t.undone = true;
        this.render(true);
        void vscode.window.setStatusBarMessage(`goose: undid turn ${turn} (${res.reverted.length} files)`, 5000);
        return;
      }
      case "sessions": {
        this.state.sessions = (await this.server.command<SessionInfo[]>("goose.listSessions")) ?? [];
        this.render(true);
        return;
      }
      case "resume": {
        const prompt = await vscode.window.showInputBox({ title: `Resume ${m.session}`, placeHolder: "Continue where you left off.", ignoreFocusOut: true });
        if (prompt === undefined) return;
        const res = await this.server.command<{ runId: string }>("goose.resume", { sessionId: m.session, prompt });
        this.server.log.started(res.runId);
        return;
      }
    }
  }

  dispose(): void {
    if (this.renderTimer) clearTimeout(this.renderTimer);
    for (const resolve of this.answers.values()) resolve(undefined);
    for (const d of this.disposables) d.dispose();
  }
}
