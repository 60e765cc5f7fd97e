// Finding the goose-ls binary: the goose.serverPath setting, else the binary bundled for this platform,
// else goose-ls on PATH; otherwise a message that says how to fix it.
import * as path from "path";

export interface Probe {
  /** isExecutable reports whether a file exists and can be run. */
  isExecutable(file: string): boolean;
}

export type Found = { path: string; source: "setting" | "bundled" | "PATH" } | { error: string };

/** bundledName is where a vsix keeps the binary for a platform, e.g. bin/linux-x64/goose-ls. */
export function bundledName(platform: string, arch: string): string {
  return path.posix.join("bin", `${platform}-${arch}`, platform === "win32" ? "goose-ls.exe" : "goose-ls");
}

/** findServer resolves the server binary in the documented order. */
export function findServer(opts: {
  setting: string;
  extensionDir: string;
  platform: string;
  arch: string;
  pathEnv: string;
  probe: Probe;
}): Found {
  const { setting, extensionDir, platform, arch, pathEnv, probe } = opts;
  if (setting.trim() !== "") {
    if (probe.isExecutable(setting)) return { path: setting, source: "setting" };
    return { error: `goose.serverPath is set to ${setting}, which is not an executable file. Fix the setting or clear it to use the bundled goose-ls.` };
  }
  const bundled = path.join(extensionDir, bundledName(platform, arch));
  if (probe.isExecutable(bundled)) return { path: bundled, source: "bundled" };
  const exe = platform === "win32" ? "goose-ls.exe" : "goose-ls";
  const sep = platform === "win32" ? ";" : ":";
  for (const dir of pathEnv.split(sep)) {
    if (!dir) continue;
    const candidate = path.join(dir, exe);
    if (probe.isExecutable(candidate)) return { path: candidate, source: "PATH" };
  }
  return {
    error:
      `goose-ls was not found: this extension has no binary for ${platform}-${arch} and goose-ls is not on PATH. ` +
      "Install it (and goose-ls-agent beside it, for agent runs) with `go install github.com/goose-ls/goose-ls/cmd/...@latest` or set goose.serverPath.",
  };
}
