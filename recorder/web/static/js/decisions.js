// The pending decisions as forms (GEN-22..GEN-28): the Tuz opening, the Gabata race
// board, the lot, the next round with an optional allocation; and the tools any
// position offers: a result decided off the board, a retraction, a comment.
// Each form builds one command; `send` records it with the page's version.
import { drawnRows, ownerOf } from "./board.js";
import { _ } from "./i18n.js";
import { element, PLAYER } from "./site.js";

const FORMS = ["opening-form", "race-form", "lot-form", "next-round-form"];
const RACE_TOTAL = 54; // GEN-37: the race board holds all 54 seeds

const byId = (id) => document.getElementById(id);

function radio(form, name) {
  const checked = form.querySelector(`input[name="${name}"]:checked`);
  return checked ? checked.value : null;
}

// -- Race board entry (GAB-2, GEN-37) ---------------------------------------------------

function buildRaceGrid(variant, state) {
  const grid = byId("race-grid");
  grid.replaceChildren();
  grid.dataset.rows = variant.board.rows;
  for (const line of drawnRows(variant.board.rows)) {
    for (const hole of line) {
      const input = element("input", {
        type: "number", min: 0, max: RACE_TOTAL, step: 1, inputMode: "numeric", required: true,
        name: hole, value: String(state.holes[hole]), "aria-label": _("seeds in %(hole)s", { hole }),
      });
      grid.append(element("label", { class: "race-hole" }, element("span", { text: hole }), input));
    }
  }
  updateRaceTotal();
}

function raceHoles() {
  const holes = {};
  for (const input of byId("race-grid").querySelectorAll("input")) holes[input.name] = Number(input.value || 0);
  return holes;
}

function updateRaceTotal() {
  const values = Object.values(raceHoles());
  const total = values.reduce((a, b) => a + b, 0);
  const whole = values.every((v) => Number.isInteger(v) && v >= 0);
  byId("race-total").value = String(total);
  byId("race-total").dataset.ok = String(total === RACE_TOTAL && whole);
  byId("race-submit").disabled = !(total === RACE_TOTAL && whole);
}

// -- Next round allocation (GEN-27, GEN-38) ---------------------------------------------

function buildAllocation(variant, state) {
  const grid = byId("allocation-grid");
  grid.replaceChildren();
  grid.dataset.rows = variant.board.rows;
  for (const line of drawnRows(variant.board.rows)) {
    for (const hole of line) {
      const button = element("button", { type: "button", class: "allocate", "data-hole": hole });
      setAllocated(button, ownerOf(variant, state, hole));
      button.addEventListener("click", () => {
        setAllocated(button, button.dataset.owner === "south" ? "north" : "south");
        updateAllocationTotal(state);
      });
      grid.append(button);
    }
  }
  updateAllocationTotal(state);
}

function setAllocated(button, owner) {
  button.dataset.owner = owner;
  button.className = `allocate owner-${owner}`;
  button.textContent = `${button.dataset.hole} ${PLAYER[owner][0]}`;
  button.setAttribute("aria-label", _("%(hole)s goes to %(player)s", { hole: button.dataset.hole, player: PLAYER[owner] }));
}

function allocation() {
  const chosen = { south: [], north: [] };
  for (const button of byId("allocation-grid").querySelectorAll("button")) chosen[button.dataset.owner].push(button.dataset.hole);
  return chosen;
}

function allocationMatches(state) {
  const counts = state.hole_counts;
  const chosen = allocation();
  return !counts || (chosen.south.length === counts.south && chosen.north.length === counts.north);
}

function updateAllocationTotal(state) {
  const chosen = allocation();
  const counts = state.hole_counts || { south: "?", north: "?" };
  byId("allocation-total").textContent =
    _("South %(south)s of %(south_total)s, North %(north)s of %(north_total)s", { south: chosen.south.length, south_total: counts.south, north: chosen.north.length, north_total: counts.north });
  const custom = byId("custom-allocation").checked;
  byId("next-round-submit").disabled = custom && !allocationMatches(state);
}

// -- Showing the form that is due ------------------------------------------------------

export function showDecision(context) {
  const { variant, state, latest, names } = context;
  for (const id of FORMS) byId(id).hidden = true;
  const due = latest && !state.game_over ? state.awaiting : null;
  if (due === "opening") byId("opening-form").hidden = false;
  if (due === "race") { buildRaceGrid(variant, state); byId("race-form").hidden = false; }
  if (due === "lot") {
    byId("lot-south").textContent = _("South (%(name)s) wins the lot", { name: names.south });
    byId("lot-north").textContent = _("North (%(name)s) wins the lot", { name: names.north });
    byId("lot-form").hidden = false;
  }
  if (due === "next_round") showNextRound(variant, state);
  showResultWhenDue(latest && !state.game_over && !state.awaiting && state.to_move && !state.legal_moves.length);
  byId("result-panel").hidden = !latest || state.game_over;
  byId("retract-panel").hidden = !latest || context.moveCount === 0;
  byId("annotate-panel").hidden = !latest;
  byId("retract-form").elements.count.max = String(Math.max(context.moveCount, 1));
}

// GEN-35: no sowing can be recorded, so a result is the next thing to do: its form moves
// from the tools into the actions above the board, open.
function showResultWhenDue(due) {
  const panel = byId("result-panel");
  const home = due ? byId("actions") : byId("tools");
  if (panel.parentElement !== home) home.prepend(panel);
  panel.classList.toggle("decision", Boolean(due));
  if (due) panel.open = true;
}

function showNextRound(variant, state) {
  const counts = state.hole_counts;
  byId("next-round-counts").textContent = counts
    ? _("Holes this round: South %(south)s, North %(north)s.", { south: counts.south, north: counts.north })
    : "";
  byId("custom-allocation").checked = false;
  byId("allocation").hidden = true;
  buildAllocation(variant, state);
  byId("next-round-form").reset();
  byId("next-round-submit").disabled = false;
  byId("next-round-form").hidden = false;
}

// -- Wiring: each form becomes one command ----------------------------------------------

export function wireForms(current, send) {
  const submitted = (id, build) => byId(id).addEventListener("submit", (event) => {
    event.preventDefault();
    const command = build(event.target, event.submitter);
    if (command) send(command);
  });
  submitted("opening-form", (form, button) => ({ type: "opening", choice: button.value }));
  submitted("lot-form", (form, button) => ({ type: "lot", winner: button.value }));
  submitted("race-form", (form) => ({ type: "race", winner: radio(form, "winner"), holes: raceHoles() }));
  submitted("next-round-form", (form) => {
    const command = { type: "next_round", first_player: radio(form, "first_player") };
    if (byId("custom-allocation").checked) command.allocation = allocation();
    return command;
  });
  submitted("result-form", (form) => {
    const command = { type: "result", kind: form.elements.kind.value, winner: form.elements.winner.value || null };
    if (form.elements.note.value.trim()) command.note = form.elements.note.value.trim();
    return command;
  });
  submitted("retract-form", (form) => ({
    type: "retract", count: Number(form.elements.count.value), reason: form.elements.reason.value.trim(),
  }));
  submitted("annotate-form", (form) => ({ type: "annotate", text: form.elements.text.value.trim() }));
  byId("race-grid").addEventListener("input", updateRaceTotal);
  byId("custom-allocation").addEventListener("change", (event) => {
    byId("allocation").hidden = !event.target.checked;
    updateAllocationTotal(current().state);
  });
}

export function resetToolForms() {
  for (const id of ["retract-form", "result-form", "annotate-form"]) byId(id).reset();
  for (const id of ["retract-panel", "result-panel", "annotate-panel"]) byId(id).open = false;
}
