// Storing an API key where goose keeps it: `goose-ls secret set NAME`, the key written to its stdin (never
// on a command line, never in a language-server message that a trace could log).
import { spawn } from "child_process";

/** storeSecret runs the goose-ls binary to store value under name; it resolves with what goose-ls says
 * (where the key went) and rejects with its error. */
export function storeSecret(binary: string, name: string, value: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ["secret", "set", name], { env, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve([out.trim(), err.trim()].filter(Boolean).join("\n"));
      else reject(new Error(err.trim() || `goose-ls secret set exited with ${code}`));
    });
    child.stdin.end(value);
  });
}
