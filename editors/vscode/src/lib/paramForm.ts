// The goose view's parameters form for Run Recipe: one field per recipe parameter (a list for select and
// boolean, text otherwise, prefilled with the default), checked as the quick-input questions check them.
import { escapeHtml } from "./markdown";
import { RecipeParameter, validateDate, validateNumber } from "./parameters";

export interface ParamForm {
  uri: string;
  recipe: string; // the file name shown
  params: RecipeParameter[];
  values: Record<string, string>;
  errors: Record<string, string>;
}

/** formErrors checks the values: required and user_prompt parameters need one; numbers and dates must
 * parse; an optional parameter left empty keeps its default. */
export function formErrors(params: RecipeParameter[], values: Record<string, string>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const p of params) {
    const v = (values[p.key] ?? "").trim();
    if (v === "") {
      if (p.requirement !== "optional" && p.default === undefined) errors[p.key] = "A value is required";
      continue;
    }
    const bad = p.input_type === "number" ? validateNumber(v) : p.input_type === "date" ? validateDate(v) : p.input_type === "select" && p.options && !p.options.includes(v) ? "Pick one of the options" : undefined;
    if (bad) errors[p.key] = bad;
  }
  return errors;
}

/** formValues keeps the values to send: empty fields are left out so the server applies the defaults. */
export function formValues(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ""));
}

function field(p: RecipeParameter, value: string): string {
  const name = escapeHtml(p.key);
  const choices = p.input_type === "select" ? p.options ?? [] : p.input_type === "boolean" ? ["true", "false"] : undefined;
  if (choices) {
    const opts = (p.requirement === "optional" || p.default !== undefined ? [""] : []).concat(choices);
    return `<select id="param-${name}" name="${name}">${opts.map((o) => `<option value="${escapeHtml(o)}"${o === value ? " selected" : ""}>${o === "" ? "(default)" : escapeHtml(o)}</option>`).join("")}</select>`;
  }
  const type = p.input_type === "number" ? "number" : p.input_type === "date" ? "date" : "text";
  return `<input id="param-${name}" name="${name}" type="${type}" value="${escapeHtml(value)}" placeholder="${escapeHtml(p.default ?? "")}">`;
}

/** renderForm is the form's HTML; Run sends the fields' values with the "runForm" action. */
export function renderForm(f: ParamForm): string {
  const rows = f.params
    .map((p) => {
      const err = f.errors[p.key] ? `<div class="field-error" role="alert">${escapeHtml(f.errors[p.key])}</div>` : "";
      const req = p.requirement === "optional" ? "" : ` <span class="meta">(${escapeHtml(p.requirement)})</span>`;
      const desc = p.description ? `<div class="meta">${escapeHtml(p.description)}</div>` : "";
      return `<div class="field"><label for="param-${escapeHtml(p.key)}">${escapeHtml(p.key)}${req}</label>${desc}${field(p, f.values[p.key] ?? p.default ?? "")}${err}</div>`;
    })
    .join("");
  return (
    `<form class="params" id="params-form" aria-label="Parameters of ${escapeHtml(f.recipe)}"><h2>Run ${escapeHtml(f.recipe)}</h2>${rows}` +
    `<button class="primary" type="button" data-action="runForm" data-form="params-form">Run</button> ` +
    `<button type="button" data-action="closeForm">Cancel</button></form>`
  );
}
