// The goose/runEvent stream as readable transcript text (docs/protocol.md lists the events).

/** One goose/runEvent: the fields of agent/host's Event (its JSON fixtures are the tests' events). */
export interface RunEvent {
  runId: string;
  kind: string;
  agent?: string;
  text?: string;
  tool?: string;
  callId?: string;
  arguments?: unknown;
  result?: string;
  isError?: boolean;
  status?: string;
  title?: string;
  progressToken?: string;
  path?: string;
  turn?: number;
  created?: boolean;
  sessionId?: string;
  usage?: { input_tokens?: number; output_tokens?: number };
}

/** target names what a tool call works on. */
function target(args: unknown): string {
  if (args && typeof args === "object") {
    const a = args as Record<string, unknown>;
    for (const k of ["path", "command", "url", "query"]) {
      if (typeof a[k] === "string") return String(a[k]).split("\n")[0];
    }
  }
  return "";
}

function firstLine(s: string | undefined): string {
  const line = (s ?? "").trim().split("\n")[0];
  return line.length > 120 ? line.slice(0, 120) + "…" : line;
}

/** render turns one event into transcript text: streamed text as is, everything else on its own lines. */
export function render(ev: RunEvent): string {
  const who = ev.agent ? `[${ev.agent}] ` : "";
  switch (ev.kind) {
    case "start":
      return `\n=== ${ev.title ?? "goose"} (${ev.runId}) ===\n`;
    case "text":
      return ev.text ?? "";
    case "toolStart":
      return `\n${who}▸ ${ev.tool} ${target(ev.arguments)}\n`;
    case "toolEnd":
      return `${who}  ${ev.isError ? "✗" : "✓"} ${firstLine(ev.result)}\n`;
    case "edit":
      return `${who}  edited ${ev.path} (turn ${ev.turn})\n`;
    case "finalOutput":
      return `\nfinal output: ${ev.text}\n`;
    case "notice":
    case "message":
    case "error":
      return `\n${who}${ev.kind}: ${ev.text}\n`;
    case "session":
      return `session ${ev.sessionId}\n`;
    case "done":
      return ev.agent ? "" : `\n=== ${ev.status} ===\n`;
    case "subagentDone":
      return `${who}done: ${ev.status}\n`;
  }
  return "";
}

/** RunLog remembers, per run, the turns that edited files (for undo) and the final status. */
export class RunLog {
  readonly runs = new Map<string, { turns: number[]; status?: string; sessionId?: string }>();
  last?: string;

  record(ev: RunEvent): void {
    let r = this.runs.get(ev.runId);
    if (!r) {
      r = { turns: [] };
      this.runs.set(ev.runId, r);
    }
    if (ev.kind === "edit" && ev.turn !== undefined && r.turns[r.turns.length - 1] !== ev.turn) r.turns.push(ev.turn);
    if (ev.kind === "session") r.sessionId = ev.sessionId;
    if (ev.kind === "done" && !ev.agent) r.status = ev.status;
  }

  /** started notes a run the server just accepted: it is running and the one undo applies to. */
  started(runId: string): void {
    this.last = runId;
    if (!this.runs.has(runId)) this.runs.set(runId, { turns: [] });
  }

  /** running lists runs without a final status. */
  running(): string[] {
    return [...this.runs.entries()].filter(([, r]) => r.status === undefined).map(([id]) => id);
  }

  /** popTurn returns the last run's most recent turn with edits, forgetting it. */
  popTurn(): { runId: string; turn: number } | undefined {
    const id = this.last;
    const r = id ? this.runs.get(id) : undefined;
    const turn = r?.turns.pop();
    return id && turn !== undefined ? { runId: id, turn } : undefined;
  }
}
