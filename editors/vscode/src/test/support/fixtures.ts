// The goose/runEvent fixtures the Go host is tested against (agent/host/testdata/runevents): the editor's
// tests read the same files, so both sides agree on every field of every kind.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { RunEvent } from "../../lib/transcript";

/** The folder of the fixtures, from the compiled test (editors/vscode/out/test/support). */
export const runEventsDir = path.resolve(__dirname, "../../../../../agent/host/testdata/runevents");

/** runEvents returns the fixture events of one kind, in the file's order. */
export function runEvents(kind: string): RunEvent[] {
  return JSON.parse(readFileSync(path.join(runEventsDir, `${kind}.json`), "utf8")) as RunEvent[];
}

/** runEvent is the i-th fixture event of a kind. */
export function runEvent(kind: string, i = 0): RunEvent {
  const list = runEvents(kind);
  if (i >= list.length) throw new Error(`${kind}.json has no event ${i}`);
  return list[i];
}
