// Which documents are goose recipes: the same name and content rules as goose-ls (recipe/detect.go), so
// the extension marks exactly the files the server reports on.

/** hasKey finds `key:` at the start of a line (top level or one level in) or `"key"` in JSON. */
function hasKey(text: string, key: string): boolean {
  if (text.includes(`"${key}"`)) return true;
  for (const line of text.split("\n")) {
    const t = line.replace(/^ +/, "");
    if (line.length - t.length <= 2 && t.length > key.length && t[key.length] === ":" && t.startsWith(key)) return true;
  }
  return false;
}

/** looksLikeRecipe reports whether a YAML/JSON file at path with this text is a goose recipe. */
export function looksLikeRecipe(path: string, text: string): boolean {
  const slash = path.replace(/\\/g, "/");
  const base = slash.slice(slash.lastIndexOf("/") + 1).toLowerCase();
  const dot = base.lastIndexOf(".");
  const ext = dot >= 0 ? base.slice(dot) : "";
  if (ext !== ".yaml" && ext !== ".yml" && ext !== ".json") return false;
  if (base.slice(0, dot).endsWith(".recipe")) return true;
  if (slash.includes("/recipes/") || slash.startsWith("recipes/")) return hasKey(text, "title") || hasKey(text, "recipe");
  return hasKey(text, "title") && hasKey(text, "description") && (hasKey(text, "instructions") || hasKey(text, "prompt"));
}
