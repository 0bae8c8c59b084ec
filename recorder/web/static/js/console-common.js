// What both console pages share: a form's answer from the API shown where it belongs.
// The API names the field at fault (problem+json `field`) and words its title in the
// reader's language (Accept-Language): the page shows it, and marks the field.
import { element } from "./dom.js";
import { _ } from "./i18n.js";

// A form's own names for what the API calls otherwise (the clock's two fields make one
// time_control; a new player's entry is a registration).
const FIELD_OF = { time_control: "base_minutes" };

export function clearProblem(form) {
  const shown = form.querySelector("[data-problem]");
  if (shown) shown.hidden = true;
  for (const field of form.querySelectorAll("[aria-invalid]")) field.removeAttribute("aria-invalid");
  for (const note of form.querySelectorAll(".field-problem")) note.remove();
}

// The label a person reads for a form's field, in the page's language.
function labelOf(field) {
  const label = field.id ? document.querySelector(`label[for="${field.id}"]`) : field.closest("label");
  return label ? (label.firstChild?.textContent || label.textContent).trim() : "";
}

// The API's own English words, marked so that no reader's tool takes them for the page's language.
function apiWords(text) {
  const span = element("span", { class: "problem-detail", lang: "en", text: `(${text})` });
  span.setAttribute("translate", "no");
  return span;
}

// The problem at the foot of the form: its title (in the reader's language: the API
// answers in it) and the field it concerns by the form's own label, marked; the API's
// detail follows as the API words it, marked as such (`lang`, `translate="no"`), for
// the specifics a title cannot say. `data-field` names the API's field for outside checks.
export function showProblem(form, error) {
  clearProblem(form);
  const problem = error.problem || {};
  const shown = form.querySelector("[data-problem]");
  const name = FIELD_OF[problem.field] || problem.field;
  const field = name && form.elements ? form.elements.namedItem(String(name).split(".")[0]) : null;
  const where = field && field.setAttribute ? labelOf(field) : "";
  const detail = problem.detail || (problem.title ? "" : error.message);
  shown.replaceChildren([problem.title || _("Refused"), where].filter(Boolean).join(" — "),
    ...(detail ? [" ", apiWords(detail)] : []));
  shown.dataset.field = problem.field || "";
  shown.dataset.status = String(problem.status || error.status || "");
  shown.hidden = false;
  if (field && field.setAttribute) {
    field.setAttribute("aria-invalid", "true");
    field.insertAdjacentElement("afterend", element("span", { class: "field-problem error", "data-field": problem.field,
      text: problem.title || "" }));
  }
}

// A number typed in a form, or undefined when left empty.
export function typedNumber(form, name) {
  const value = form.elements[name].value.trim();
  return value === "" ? undefined : Number(value);
}
