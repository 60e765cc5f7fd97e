// The goose view's state and HTML (no vscode API): runs built from goose/runEvent notifications (streamed
// assistant text, tool calls with arguments and results, the files each turn changed), pending approvals
// and the session list; every piece of text from the server or the model is escaped.
import { escapeHtml, renderMarkdown } from "./markdown";
import { RunEvent } from "./transcript";
import { ParamForm, renderForm } from "./paramForm";

export interface ToolCall {
  callId: string;
  tool: string;
  agent: string;
  args: unknown;
  result?: string;
  isError?: boolean;
}

export interface TurnFiles {
  turn: number;
  agent: string;
  files: { path: string; created: boolean }[];
  undone?: boolean;
}

export type Item =
  | { kind: "text"; agent: string; text: string }
  | { kind: "tool"; call: ToolCall }
  | { kind: "note"; level: "notice" | "message" | "error" | "final"; agent: string; text: string }
  | { kind: "turn"; files: TurnFiles };

export interface Run {
  runId: string;
  title: string;
  status?: string;
  sessionId?: string;
  items: Item[];
}

export interface Approval {
  id: number;
  message: string;
  actions: string[];
}

export interface SessionInfo {
  id: string;
  name: string;
  updatedAt: string;
  messages: number;
}

const MAX_RESULT = 20_000; // characters of a tool result kept for the view

export class ViewState {
  readonly runs: Run[] = [];
  approvals: Approval[] = [];
  sessions?: SessionInfo[];
  form?: ParamForm;

  run(runId: string): Run {
    let r = this.runs.find((x) => x.runId === runId);
    if (!r) {
      r = { runId, title: runId, items: [] };
      this.runs.push(r);
    }
    return r;
  }

  /** apply folds one goose/runEvent into the state. */
  apply(ev: RunEvent & { callId?: string; created?: boolean }): void {
    const r = this.run(ev.runId);
    const agent = ev.agent ?? "";
    const last = r.items[r.items.length - 1];
    switch (ev.kind) {
      case "start":
        if (!agent) r.title = ev.title ?? r.title;
        break;
      case "text":
        if (last?.kind === "text" && last.agent === agent) last.text += ev.text ?? "";
        else r.items.push({ kind: "text", agent, text: ev.text ?? "" });
        break;
      case "toolStart":
        r.items.push({ kind: "tool", call: { callId: ev.callId ?? String(r.items.length), tool: ev.tool ?? "", agent, args: ev.arguments } });
        break;
      case "toolEnd": {
        const call = [...r.items].reverse().find((i): i is Extract<Item, { kind: "tool" }> => i.kind === "tool" && i.call.callId === ev.callId && i.call.result === undefined);
        const result = (ev.result ?? "").length > MAX_RESULT ? ev.result!.slice(0, MAX_RESULT) + "\n…" : ev.result ?? "";
        if (call) {
          call.call.result = result;
          call.call.isError = ev.isError;
        } else r.items.push({ kind: "tool", call: { callId: ev.callId ?? "", tool: ev.tool ?? "", agent, args: undefined, result, isError: ev.isError } });
        break;
      }
      case "edit": {
        if (ev.turn === undefined || !ev.path) break;
        let block = [...r.items].reverse().find((i): i is Extract<Item, { kind: "turn" }> => i.kind === "turn" && i.files.turn === ev.turn && i.files.agent === agent);
        if (!block) {
          block = { kind: "turn", files: { turn: ev.turn, agent, files: [] } };
          r.items.push(block);
        }
        if (!block.files.files.some((f) => f.path === ev.path)) block.files.files.push({ path: ev.path, created: !!ev.created });
        break;
      }
      case "session":
        r.sessionId = ev.sessionId;
        break;
      case "notice":
      case "message":
      case "error":
        r.items.push({ kind: "note", level: ev.kind, agent, text: ev.text ?? "" });
        break;
      case "finalOutput":
        r.items.push({ kind: "note", level: "final", agent, text: ev.text ?? "" });
        break;
      case "done":
        if (!agent) r.status = ev.status;
        break;
      case "subagentDone":
        r.items.push({ kind: "note", level: "message", agent, text: `done: ${ev.status}` });
        break;
    }
  }

  /** turn finds a turn's files in a run. */
  turn(runId: string, turn: number): TurnFiles | undefined {
    for (const i of this.runs.find((x) => x.runId === runId)?.items ?? []) {
      if (i.kind === "turn" && i.files.turn === turn && !i.files.agent) return i.files;
    }
    return undefined;
  }
}

function target(args: unknown): string {
  if (args && typeof args === "object") {
    const a = args as Record<string, unknown>;
    for (const k of ["path", "command", "url", "query"]) if (typeof a[k] === "string") return String(a[k]).split("\n")[0].slice(0, 80);
  }
  return "";
}

function button(label: string, data: Record<string, string | number>, cls = ""): string {
  const attrs = Object.entries(data).map(([k, v]) => ` data-${k}="${escapeHtml(String(v))}"`).join("");
  return `<button${cls ? ` class="${cls}"` : ""}${attrs}>${escapeHtml(label)}</button>`;
}

function who(agent: string): string {
  return agent ? `<span class="agent">${escapeHtml(agent)}</span> ` : "";
}

/** RenderOptions adapt the view to the workspace: how a file path is shown. */
export interface RenderOptions {
  label?: (path: string) => string;
}

function renderItem(r: Run, item: Item, index: number, o: RenderOptions): string {
  switch (item.kind) {
    case "text":
      return `<div class="assistant">${who(item.agent)}${renderMarkdown(item.text)}</div>`;
    case "tool": {
      const c = item.call;
      const state = c.result === undefined ? `<span class="pending">running…</span>` : c.isError ? `<span class="error">✗ error</span>` : `<span class="ok">✓</span>`;
      const args = c.args === undefined ? "" : JSON.stringify(c.args, null, 2);
      return (
        `<details class="tool" id="tool-${escapeHtml(r.runId)}-${index}"><summary>${who(c.agent)}<span class="tool-name">${escapeHtml(c.tool)}</span> ` +
        `<span class="target">${escapeHtml(target(c.args))}</span> ${state}</summary>` +
        `<div class="label">arguments</div><pre class="args">${escapeHtml(args)}</pre>` +
        (c.result === undefined ? "" : `<div class="label">result</div><pre class="result">${escapeHtml(c.result)}</pre>`) +
        `</details>`
      );
    }
    case "note":
      return `<div class="note ${item.level}">${who(item.agent)}${item.level === "final" ? "final output: " : ""}${escapeHtml(item.text)}</div>`;
    case "turn": {
      const t = item.files;
      const files = t.files
        .map((f) => `<li><span class="path" title="${escapeHtml(f.path)}">${escapeHtml(o.label ? o.label(f.path) : f.path)}</span>${f.created ? " (new)" : ""} ${button("Review", { action: "review", run: r.runId, turn: t.turn, path: f.path })}</li>`)
        .join("");
      const undo = t.agent ? "" : t.undone ? `<span class="undone">undone</span>` : button("Undo turn", { action: "undo", run: r.runId, turn: t.turn });
      return `<div class="turn">${who(t.agent)}<div class="label">turn ${t.turn} changed</div><ul>${files}</ul>${undo}</div>`;
    }
  }
}

/** renderView is the view's body. */
export function renderView(s: ViewState, o: RenderOptions = {}): string {
  const parts: string[] = [];
  parts.push(`<div class="toolbar">${button("Run Recipe", { action: "runRecipe" })} ${button("Sessions", { action: "sessions" })}</div>`);
  if (s.form) parts.push(renderForm(s.form));
  if (s.runs.length === 0 && !s.form) parts.push(`<p class="empty">No run yet: open a recipe and press Run Recipe, or ask goose about a selection.</p>`);
  for (const r of s.runs) {
    const status = r.status ? `<span class="status ${escapeHtml(r.status)}">${escapeHtml(r.status)}</span>` : `<span class="status running">running</span> ${button("Cancel", { action: "cancel", run: r.runId })}`;
    parts.push(`<section class="run" id="run-${escapeHtml(r.runId)}"><h2>${escapeHtml(r.title)} ${status}</h2>`);
    r.items.forEach((item, i) => parts.push(renderItem(r, item, i, o)));
    parts.push(`</section>`);
  }
  for (const a of s.approvals) {
    parts.push(
      `<div class="approval" role="alertdialog" aria-label="goose asks for approval"><div class="question">${escapeHtml(a.message)}</div>` +
        a.actions.map((t, i) => button(t, { action: "answer", id: a.id, title: t }, i === 0 ? "primary" : "")).join(" ") +
        `</div>`,
    );
  }
  if (s.sessions) {
    const rows = s.sessions.length
      ? s.sessions.map((x) => `<li><span class="session">${escapeHtml(x.name || x.id)}</span> <span class="meta">${x.messages} messages · ${escapeHtml(x.updatedAt)}</span> ${button("Resume", { action: "resume", session: x.id })}</li>`).join("")
      : `<li class="empty">no sessions yet</li>`;
    parts.push(`<details class="sessions" id="sessions" open><summary>Sessions</summary><ul>${rows}</ul></details>`);
  }
  return parts.join("\n");
}
