// The goose-ls language client: finds the binary, passes provider settings (and an API key an older version
// kept in VS Code's secret storage) through the process environment, restarts after crashes (with a limit) and on setting changes, routes
// goose/runEvent notifications to the transcript, the status bar and its listeners (the goose view), and
// lets the goose view answer approvals and apply the agent's edits.
import * as fs from "fs";
import * as vscode from "vscode";
import {
  ApplyWorkspaceEditParams,
  ApplyWorkspaceEditResult,
  CloseAction,
  ErrorAction,
  LanguageClient,
  LanguageClientOptions,
  MessageActionItem,
  ServerOptions,
  ShowMessageRequestParams,
} from "vscode-languageclient/node";
import { findServer } from "./lib/serverPath";
import { RestartPolicy } from "./lib/restartPolicy";
import { serverEnv } from "./lib/providerEnv";
import { render, RunEvent, RunLog } from "./lib/transcript";

export const RUN_COMMAND = "goose.vscode.runRecipe";

/** SERVER_SETTINGS are the settings the server is started with: changing one restarts it (the preview's
 * values do not). */
const SERVER_SETTINGS = ["goose.serverPath", "goose.provider", "goose.model", "goose.mode", "goose.reviewEdits", "goose.inlayHints", "goose.desktopHints", "goose.storeSessions"];

/** ServerHooks take over server requests the goose view answers (approvals, the agent's edits). */
export interface ServerHooks {
  showMessageRequest(p: ShowMessageRequestParams, token: vscode.CancellationToken): Promise<MessageActionItem | null>;
  applyEdit(p: ApplyWorkspaceEditParams): Promise<ApplyWorkspaceEditResult>;
}

export class GooseServer implements vscode.Disposable {
  client?: LanguageClient;
  hooks?: ServerHooks;
  private readonly events = new vscode.EventEmitter<RunEvent>();
  /** onEvent fires for every goose/runEvent notification. */
  readonly onEvent = this.events.event;
  readonly log = new RunLog();
  readonly transcript = vscode.window.createOutputChannel("goose transcript");
  readonly output = vscode.window.createOutputChannel("goose-ls");
  private readonly status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
  private readonly policy = new RestartPolicy();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly ctx: vscode.ExtensionContext) {
    this.status.command = "goose.vscode.cancel";
    this.disposables.push(
      this.transcript,
      this.output,
      this.status,
      this.events,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (SERVER_SETTINGS.some((k) => e.affectsConfiguration(k))) void this.restart("settings changed");
      }),
    );
  }

  /** find resolves the goose-ls binary (setting, bundled, PATH). */
  private find() {
    return findServer({
      setting: vscode.workspace.getConfiguration("goose").get<string>("serverPath", ""),
      extensionDir: this.ctx.extensionPath,
      platform: process.platform,
      arch: process.arch,
      pathEnv: process.env.PATH ?? "",
      probe: { isExecutable: (f) => isExecutable(f) },
    });
  }

  /** binary is the goose-ls executable, for its CLI commands; it throws the lookup's fix when none is found. */
  binary(): string {
    const found = this.find();
    if ("error" in found) throw new Error(found.error);
    return found.path;
  }

  /** start launches the server, or explains why it cannot. */
  async start(): Promise<void> {
    const cfg = vscode.workspace.getConfiguration("goose");
    const found = this.find();
    if ("error" in found) {
      const open = "Open Settings";
      void vscode.window.showErrorMessage(found.error, open).then((a) => {
        if (a === open) void vscode.commands.executeCommand("workbench.action.openSettings", "goose.serverPath");
      });
      return;
    }
    this.output.appendLine(`goose-ls: ${found.path} (${found.source})`);
    const provider = cfg.get<string>("provider", "");
    const apiKey = await this.ctx.secrets.get(secretKey(provider || process.env.GOOSE_PROVIDER || ""));
    const env = serverEnv(process.env, { provider, model: cfg.get<string>("model", ""), mode: cfg.get<string>("mode", "") }, apiKey);
    const serverOptions: ServerOptions = { command: found.path, args: ["serve"], options: { env } };
    const clientOptions: LanguageClientOptions = {
      // every file document is synced so the agent reads unsaved text; goose-ls only reports on recipes
      documentSelector: [{ scheme: "file" }, { scheme: "untitled", language: "yaml" }],
      outputChannel: this.output,
      initializationOptions: {
        runRecipeCommand: RUN_COMMAND,
        reviewEdits: cfg.get<boolean>("reviewEdits", false),
        inlayHints: cfg.get<boolean>("inlayHints", false),
        desktopHints: cfg.get<boolean>("desktopHints", true),
        noSessions: !cfg.get<boolean>("storeSessions", true),
      },
      errorHandler: {
        error: () => ({ action: ErrorAction.Continue }),
        closed: () => {
          if (this.policy.onCrash(Date.now())) return { action: CloseAction.Restart };
          return { action: CloseAction.DoNotRestart, message: "goose-ls stopped several times in a row; run 'goose: Restart Language Server' after fixing it (see the goose-ls output)." };
        },
      },
    };
    this.client = new LanguageClient("goose-ls", "goose-ls", serverOptions, clientOptions);
    this.client.onNotification("goose/runEvent", (ev: RunEvent) => this.onRunEvent(ev));
    const hooks = this.hooks;
    if (hooks) {
      // registered before start, these replace the client's own handlers (notifications, applyEdit)
      this.client.onRequest("window/showMessageRequest", (p: ShowMessageRequestParams, token: vscode.CancellationToken) => hooks.showMessageRequest(p, token));
      this.client.onRequest("workspace/applyEdit", (p: ApplyWorkspaceEditParams) => hooks.applyEdit(p));
    }
    await this.client.start();
  }

  async restart(why: string): Promise<void> {
    this.output.appendLine(`restarting goose-ls: ${why}`);
    this.policy.reset();
    const old = this.client;
    this.client = undefined;
    if (old) await old.stop().catch(() => undefined);
    await this.start();
  }

  /** command sends a workspace/executeCommand to the server. */
  async command<T>(name: string, arg: unknown = {}): Promise<T> {
    if (!this.client) throw new Error("goose-ls is not running");
    return this.client.sendRequest<T>("workspace/executeCommand", { command: name, arguments: [arg] });
  }

  private onRunEvent(ev: RunEvent): void {
    this.log.record(ev);
    this.events.fire(ev);
    const text = render(ev);
    if (text) this.transcript.append(text);
    if (ev.kind === "done" && !ev.agent) {
      const msg = `goose: ${ev.runId} ${ev.status}`;
      if (ev.status === "completed") void vscode.window.setStatusBarMessage(msg, 5000);
      else void vscode.window.showWarningMessage(msg);
    }
    this.updateStatus();
  }

  updateStatus(): void {
    const running = this.log.running();
    if (running.length === 0) {
      this.status.hide();
      return;
    }
    this.status.text = `$(sync~spin) goose: ${running.length === 1 ? running[0] : running.length + " runs"}`;
    this.status.tooltip = "goose is working — click to cancel";
    this.status.show();
  }

  dispose(): void {
    void this.client?.stop();
    for (const d of this.disposables) d.dispose();
  }
}

/** secretKey is the SecretStorage entry of a provider's API key. */
export function secretKey(provider: string): string {
  return `goose.apiKey.${provider.trim().toLowerCase() || "default"}`;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
