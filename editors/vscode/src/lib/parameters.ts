// How to ask for each recipe parameter (goose.recipeParameters): the widget per input type, the prefilled
// default and the validation of what the user types.

export interface RecipeParameter {
  key: string;
  input_type: string;
  requirement: string;
  description?: string;
  default?: string;
  options?: string[];
}

export type Question =
  | { key: string; widget: "pick"; title: string; items: string[]; preselect?: string }
  | { key: string; widget: "file"; title: string }
  | { key: string; widget: "input"; title: string; value?: string; validate: (v: string) => string | undefined };

/** questions lists what to ask: required parameters without a value, and user_prompt ones. */
export function questions(params: RecipeParameter[], given: Record<string, string>): Question[] {
  const out: Question[] = [];
  for (const p of params) {
    if (given[p.key] !== undefined) continue;
    if (p.requirement === "optional") continue;
    if (p.requirement !== "user_prompt" && p.default !== undefined) continue;
    const title = p.description ? `${p.key}: ${p.description}` : p.key;
    switch (p.input_type) {
      case "select":
        out.push({ key: p.key, widget: "pick", title, items: p.options ?? [], preselect: p.default });
        break;
      case "boolean":
        out.push({ key: p.key, widget: "pick", title, items: ["true", "false"], preselect: p.default });
        break;
      case "file":
        out.push({ key: p.key, widget: "file", title });
        break;
      case "number":
        out.push({ key: p.key, widget: "input", title, value: p.default, validate: validateNumber });
        break;
      case "date":
        out.push({ key: p.key, widget: "input", title, value: p.default, validate: validateDate });
        break;
      default:
        out.push({ key: p.key, widget: "input", title, value: p.default, validate: (v) => (v.trim() === "" ? "A value is required" : undefined) });
    }
  }
  return out;
}

export function validateNumber(v: string): string | undefined {
  return v.trim() !== "" && Number.isFinite(Number(v)) ? undefined : "Enter a number";
}

export function validateDate(v: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v.trim());
  if (!m) return "Enter a date as YYYY-MM-DD";
  const d = new Date(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`);
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() + 1 === Number(m[2]) && d.getUTCDate() === Number(m[3])
    ? undefined
    : "Not a calendar date";
}
