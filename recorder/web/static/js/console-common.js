// What both console pages share: a form's answer from the API shown where it belongs.
// The API names the field at fault (problem+json `field`) and words its title and detail
// in the reader's language (Accept-Language): the page shows them, beside the field.
import { describeProblem } from "./api.js";

// A form's own names for what the API calls otherwise (the clock's two fields make one
// time_control; a new player's entry is a registration).
const FIELD_OF = { time_control: "base_minutes" };

export function clearProblem(form) {
  const shown = form.querySelector("[data-problem]");
  if (shown) shown.hidden = true;
  for (const field of form.querySelectorAll("[aria-invalid]")) field.removeAttribute("aria-invalid");
  for (const note of form.querySelectorAll(".field-problem")) note.remove();
}

// The problem in words at the foot of the form, and the field it concerns marked, with
// the message under it; `data-field` on the message names the API's field for outside checks.
export function showProblem(form, error) {
  clearProblem(form);
  const problem = error.problem || {};
  const shown = form.querySelector("[data-problem]");
  shown.textContent = describeProblem(error);
  shown.dataset.field = problem.field || "";
  shown.dataset.status = String(problem.status || error.status || "");
  shown.hidden = false;
  const name = FIELD_OF[problem.field] || problem.field;
  const field = name && form.elements ? form.elements.namedItem(String(name).split(".")[0]) : null;
  if (field && field.setAttribute) {
    field.setAttribute("aria-invalid", "true");
    const note = document.createElement("span");
    note.className = "field-problem error";
    note.dataset.field = problem.field;
    note.textContent = problem.detail || problem.title || "";
    field.insertAdjacentElement("afterend", note);
  }
}

// A number typed in a form, or undefined when left empty.
export function typedNumber(form, name) {
  const value = form.elements[name].value.trim();
  return value === "" ? undefined : Number(value);
}
