// Recognising the server's approval questions and the turn an edit belongs to (its change annotation).

/** isApproval says whether a window/showMessageRequest is a tool-call approval (lsp/agentprompts.go). */
export function isApproval(actions: string[]): boolean {
  return actions.includes("Allow once") && actions.includes("Deny");
}

/** turnOfAnnotation reads `goose:<runId>:turn-<n>` (the annotation of an agent turn's edits). */
export function turnOfAnnotation(id: string): { runId: string; turn: number } | undefined {
  const m = /^goose:(.+):turn-(\d+)$/.exec(id);
  return m ? { runId: m[1], turn: Number(m[2]) } : undefined;
}
