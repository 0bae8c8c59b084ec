// The console's first page: the tournaments, a form that creates one (everything
// POST /api/tournaments accepts, a knock-out's matches and play-offs and a team event's
// boards included) and a TRF to import (POST /api/tournaments/trf). The admin
// writes here; an arbiter goes on to his tournament's console. No rule is decided here:
// what the form gathers is sent as it is, and the API's answer (or its refusal, in the
// reader's language, with the field it concerns) is shown.
import { getJSON, post, request, Problem } from "./api.js";
import { clearProblem, showProblem, typedNumber } from "./console-common.js";
import { _, date } from "./i18n.js";
import { element, pageAccess } from "./site.js";

const page = document.getElementById("console-page");
const byId = (id) => document.getElementById(id);
const consoleOf = (id) => `/tournaments/${encodeURIComponent(id)}/console`;

function renderTournaments(list, principal) {
  const mine = principal && principal.kind === "arbiter" ? list.filter((t) => t.id === principal.tournament_id) : list;
  const cards = mine.map((t) => element("li", { class: "card", "data-tournament": t.id },
    element("a", { href: consoleOf(t.id) }, element("strong", { text: t.name }),
      element("span", { class: "hint", text: [t.site, date(t.start_date)].filter(Boolean).join(" · ") }))));
  byId("console-tournaments").replaceChildren(...(cards.length ? cards
    : [element("li", { class: "hint", text: _("No tournament yet.") })]));
}

function fillVariants(variants) {
  for (const id of ["create-variant", "import-variant"]) {
    byId(id).replaceChildren(...variants.map((v) => element("option", { value: v.name, text: v.title })));
  }
}

// The form as the API's body: empty fields are left out (the API's defaults hold).
function creationBody(form) {
  const f = form.elements;
  const body = { name: f.name.value.trim(), variant: f.variant.value, format: f.format.value, rated: f.rated.checked,
    finished_public: f.finished_public.checked };
  const numbers = { rounds: "rounds", broadcast_delay: "broadcast_delay", bye_points: "bye_points", absence_points: "absence_points" };
  for (const [key, name] of Object.entries(numbers)) {
    const value = typedNumber(form, name);
    if (value !== undefined) body[key] = value;
  }
  for (const name of ["pairing_rules", "acceleration", "site", "start_date", "end_date", "team_primary_score", "team_colour_preferences"]) {
    if (f[name].value.trim()) body[name] = f[name].value.trim();
  }
  const clock = typedClock(form, "base_minutes", "increment_seconds");
  if (clock) body.time_control = clock;
  if (body.format === "knockout") body.knockout = knockoutSettings(form);
  const boards = typedNumber(form, "team_boards");
  if (boards !== undefined) body.team_boards = boards;
  for (const name of ["tiebreaks", "team_tiebreaks"]) {
    const codes = f[name].value.trim();
    if (codes) body[name] = codes.split(/[\s,]+/);
  }
  const options = f.options.value.trim();
  if (options) body.options = parsedOptions(options);
  return body;
}

// A clock as the API takes it, from a form's minutes and seconds added per move; none
// when the minutes are left empty.
function typedClock(form, minutesField, incrementField) {
  const minutes = typedNumber(form, minutesField);
  if (minutes === undefined) return undefined;
  const increment = typedNumber(form, incrementField) || 0;
  return { stages: [{ base_ms: Math.round(minutes * 60000), increment_ms: Math.round(increment * 1000) }] };
}

// A knock-out's settings (the API's defaults hold for the fields left empty).
function knockoutSettings(form) {
  const settings = {};
  for (const name of ["match_games", "playoff_games"]) {
    const value = typedNumber(form, name);
    if (value !== undefined) settings[name] = value;
  }
  const clock = typedClock(form, "playoff_minutes", "playoff_increment_seconds");
  if (clock) settings.playoff_time_control = clock;
  return settings;
}

// Options the API cannot read as JSON are refused as the API refuses a body.
function parsedOptions(text) {
  try {
    return JSON.parse(text);
  } catch {
    throw new Problem(400, { title: _("Malformed JSON"), detail: _("the rules options are not JSON"), field: "options" });
  }
}

async function create(event) {
  event.preventDefault();
  const form = event.currentTarget;
  clearProblem(form);
  try {
    const { data } = await post("/api/tournaments", creationBody(form));
    window.location.assign(consoleOf(data.id));
  } catch (error) {
    showProblem(form, error);
  }
}

async function importTrf(event) {
  event.preventDefault();
  const form = event.currentTarget;
  clearProblem(form);
  try {
    const file = form.elements.trf.files[0];
    const text = file ? await file.text() : "";
    const url = `/api/tournaments/trf?variant=${encodeURIComponent(form.elements.variant.value)}`;
    const response = await request(url, { method: "POST", headers: { "Content-Type": "text/plain", Accept: "application/json" }, body: text });
    const answer = await response.json();
    if (!response.ok) throw new Problem(response.status, answer);
    window.location.assign(consoleOf(answer.id));
  } catch (error) {
    showProblem(form, error);
  }
}

async function load() {
  const [{ data: list }, { data: variants }, access] = await Promise.all([
    getJSON("/api/tournaments?limit=100"), getJSON("/api/variants"), pageAccess]);
  const principal = access.principal;
  renderTournaments(list.tournaments, principal);
  fillVariants(variants.variants);
  const admin = principal && (principal.kind === "admin" || principal.kind === "anonymous");
  byId("console-access").hidden = Boolean(admin);
  byId("console-access").textContent = admin ? "" : _("Only the admin creates tournaments; an arbiter opens his tournament's console from the list.");
  byId("create-form").addEventListener("submit", create);
  byId("import-form").addEventListener("submit", importTrf);
  page.dataset.ready = "true";
}

load();
