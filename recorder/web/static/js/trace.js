// The explanation of one event: the engine's ordered steps, each citing its rule id
// (GET /api/games/{id}/events/{seq}/trace). Known steps read as sentences; any other
// step still shows its rule and fields, so a new kind of step is never hidden.
import { element, PLAYER } from "./site.js";

const who = (player) => PLAYER[player] || player;

const whose = (s, thing) => (s.player ? `${who(s.player)}'s ${thing}` : `the ${thing}`);
const pairText = (s) => `South ${s.south}, North ${s.north}`;

// One sentence per kind of step; the step's `why`, when it has one, is added after it.
const SENTENCES = {
  setup: (s) => `${s.variant}: ${s.south} (South) against ${s.north} (North)`,
  options: (s) => `rule options: ${Object.entries(s.options).map(([k, v]) => `${k.replaceAll("_", " ")} ${v}`).join(", ") || "none"}`,
  start: (s) => `every hole starts with ${s.seeds_per_hole} seeds`,
  position: () => "the game starts from a given position",
  awaiting: (s) => `${s.decision.replaceAll("_", " ")} awaited${s.player ? ` from ${who(s.player)}` : ""}`,
  lifted: (s) => `${who(s.player)} lifts ${s.seeds} from ${s.hole}`,
  dropped: (s) => `a seed into ${s.hole} (now ${s.now})`,
  relayed: (s) => `relay: lifts ${s.seeds} from ${s.hole}`,
  captured: (s) => `${who(s.player)} takes ${s.seeds} from ${s.hole}`,
  seed_stayed: (s) => `the seed stays in ${s.hole}`,
  created: (s) => `${s.kind} made in ${s.hole} for ${who(s.owner)}`,
  wegue_removed: (s) => `${s.hole} is an ordinary hole again`,
  no_return: (s) => `${who(s.player)} may not sow ${s.hole} straight back`,
  serial_capture: (s) => `the capture goes on from ${s.hole}`,
  no_capture: (s) => `no capture at ${s.hole}`,
  sow_again: (s) => `${who(s.player)} sows again`,
  turn_ended: (s) => `${whose(s, "turn")} ends`,
  bonus_lost: (s) => `${who(s.player)} loses the bonus sowing`,
  passed: (s) => `${who(s.player)} cannot sow and passes`,
  to_move: (s) => `${who(s.player)} to move`,
  lot_needed: () => "both remainders are 2: a lot decides the extra hole",
  round_ended: () => "the round ends",
  game_ended: (s) => `the game ends${s.result ? `: ${s.result.replaceAll("_", " ")}` : ""}`,
  match_ended: (s) => `the match ends: ${who(s.winner)} wins`,
  race: (s) => `${who(s.winner)} wins the race`,
  board_set: () => "the board is set as it stood after the race",
  opening: (s) => `${who(s.player)} plays the ${s.choice} opening`,
  opening_recorded: (s) => `${who(s.player)} plays the ${s.choice} opening`,
  lot: (s) => `${who(s.winner)} wins the lot`,
  hole_counts: (s) => `holes next round: ${pairText(s)}`,
  next_round: (s) => `round ${s.round} starts; ${who(s.first_player)} moves first`,
  board_reset: (s) => `every hole is filled with ${s.seeds_per_hole} seeds`,
  result: (s) => `result by ${s.kind}: ${s.winner ? `${who(s.winner)} wins` : "draw"}${s.note ? ` (${s.note})` : ""}`,
};

function fieldsText(step) {
  return Object.entries(step)
    .filter(([key]) => key !== "step" && key !== "rule")
    .map(([key, value]) => `${key} ${typeof value === "object" ? JSON.stringify(value) : value}`)
    .join(", ");
}

export function stepText(step) {
  const sentence = SENTENCES[step.step];
  try {
    const text = sentence ? sentence(step) : "";
    if (text && !text.includes("undefined")) return text + (step.why ? ` (${step.why})` : "");
  } catch { /* fall through to the plain form */ }
  const fields = fieldsText(step);
  return `${step.step.replaceAll("_", " ")}${fields ? `: ${fields}` : ""}`;
}

// Consecutive drops are folded into one line: a lap of 20 seeds is one sentence, not 20.
function grouped(steps) {
  const lines = [];
  for (const step of steps) {
    const last = lines[lines.length - 1];
    if (step.step === "dropped" && last && last.step === "dropped" && last.rule === step.rule) {
      last.holes.push(`${step.hole}`);
      last.now = step.now;
      continue;
    }
    lines.push(step.step === "dropped" ? { ...step, holes: [step.hole] } : step);
  }
  return lines;
}

function lineText(step) {
  if (step.step === "dropped" && step.holes.length > 1) return `sows ${step.holes.length} seeds: ${step.holes.join(" ")}`;
  return stepText(step);
}

export function stepsOf(payload) {
  if (!payload) return null;
  if (Array.isArray(payload)) return payload;
  return payload.steps || payload.trace || null;
}

export function renderTrace(list, steps, note) {
  if (!steps) {
    list.replaceChildren(element("li", { class: "hint", text: note || "No explanation is available for this position." }));
    return;
  }
  if (!steps.length) {
    list.replaceChildren(element("li", { class: "hint", text: "Nothing happened on the board at this event." }));
    return;
  }
  list.replaceChildren(...grouped(steps).map((step) => element("li", { "data-step": step.step },
    element("span", { class: "rule", text: step.rule }), " ", lineText(step))));
}
