// The render preview's pure parts: the virtual document's URI for a recipe and back, the values sent to
// goose.render (the goose.previewValues setting over the parameters' defaults) and the preview's text.

export const PREVIEW_SCHEME = "goose-preview";

/** RenderResult is goose.render's reply (docs/protocol.md). */
export interface RenderResult {
  uri: string;
  version: number;
  text: string;
  yaml: string;
  values: Record<string, string>;
  missing: string[];
  diagnostics: { range: { start: { line: number; character: number } }; message: string; severity?: number; code?: string | number }[];
}

/** previewPath is the path of a recipe's preview: the recipe's path with " (rendered)" before the extension,
 * so the tab reads "write (rendered).yaml" and the language follows the extension. */
export function previewPath(recipePath: string): string {
  const slash = recipePath.lastIndexOf("/");
  const dot = recipePath.lastIndexOf(".");
  if (dot <= slash + 1) return recipePath + " (rendered)";
  return recipePath.slice(0, dot) + " (rendered)" + recipePath.slice(dot);
}

/** previewQuery carries the recipe's URI in the preview URI's query; sourceOf reads it back. */
export function previewQuery(recipeUri: string): string {
  return "source=" + encodeURIComponent(recipeUri);
}

export function sourceOf(query: string): string | undefined {
  for (const part of query.split("&")) {
    if (part.startsWith("source=")) {
      try {
        return decodeURIComponent(part.slice("source=".length));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** previewValues picks the string values the goose.previewValues setting gives (all recipes share it);
 * anything else in the setting is ignored, so a typo cannot break the preview. Absent keys fall back to
 * the parameters' defaults on the server. */
export function previewValues(setting: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!setting || typeof setting !== "object" || Array.isArray(setting)) return out;
  for (const [k, v] of Object.entries(setting as Record<string, unknown>)) {
    if (typeof v === "string") out[k] = v;
    else if (typeof v === "number" || typeof v === "boolean") out[k] = String(v);
  }
  return out;
}

/** previewText is the preview document: the rendered text, or — when the render stopped — comment lines
 * saying why (missing values, the diagnostics with their recipe line) so the user sees what to fix. */
export function previewText(r: RenderResult, commentPrefix = "#"): string {
  if (r.text && r.missing.length === 0 && r.diagnostics.length === 0) return r.text;
  const lines: string[] = [`${commentPrefix} goose could not render this recipe:`];
  if (r.missing.length) {
    lines.push(`${commentPrefix}   missing values: ${r.missing.join(", ")} (give them in the goose.previewValues setting)`);
  }
  for (const d of r.diagnostics) {
    const code = d.code !== undefined ? ` [${d.code}]` : "";
    lines.push(`${commentPrefix}   line ${d.range.start.line + 1}: ${d.message.split("\n")[0]}${code}`);
  }
  const out = lines.join("\n") + "\n";
  return r.text ? out + "\n" + r.text : out;
}

/** Debouncer runs the latest scheduled call once no new one came for `ms` milliseconds. */
export class Debouncer {
  private timer?: ReturnType<typeof setTimeout>;
  constructor(
    private readonly ms: number,
    private readonly fn: () => void,
  ) {}
  schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.fn();
    }, this.ms);
  }
  pending(): boolean {
    return this.timer !== undefined;
  }
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
