// The explanation of one event: the engine's ordered steps, each citing its rule id
// (GET /api/games/{id}/events/{seq}/trace). Known steps read as sentences; any other
// step still shows its rule and fields, so a new kind of step is never hidden.
import { _ } from "./i18n.js";
import { element, PLAYER } from "./site.js";

const who = (player) => PLAYER[player] || player;
const word = (text) => _(String(text)).replaceAll("_", " "); // a game's own word, as the catalogs give it

const pairText = (s) => _("South %(south)s, North %(north)s", { south: s.south, north: s.north });
const RESULTS = { south_wins: _("South wins"), north_wins: _("North wins"), draw: _("Draw") };
const NONE = _("none");
const DRAW = _("draw");
const wins = (player) => _("%(player)s wins", { player: who(player) });

// The engine's reasons (a step's `why`) and the rule options' names and values, for the
// catalogs: each is shown through _() (recorder/rules, recorder/audit/trace.py).
export const WHY = [
  _("after_tuz_capture = end_turn"), _("empty wegue"), _("every hole one player owns is empty"), _("kwah"),
  _("last seed in an empty hole"), _("last seed in own tuz"), _("neither player has a legal sowing"),
  _("no legal hole to sow again"), _("own ayemi"), _("the board stays as it was"),
  _("the last seed fell into an empty hole"), _("the opponent owns the landing hole"), _("the opponent passed"),
  _("the race decides who moves first"), _("won the race"), _("south owns no hole with seeds"),
  _("north owns no hole with seeds"),
];
export const OPTION_WORDS = [
  _("serial_capture"), _("capture_only_from_own_hole"), _("group_size"), _("after_final_capture"),
  _("mazagebh_no_return"), _("match"), _("empty_wegue_landing"), _("weak_wegues"), _("wegue_block"),
  _("after_tuz_capture"), _("true"), _("false"), _("rounds"), _("single"), _("capture_seed"), _("leave_seed"),
  _("first_turn"), _("first_turn_each_player"), _("sow_again"), _("end_turn"), _("bonus_sowing"),
];

// One sentence per kind of step; the step's `why`, when it has one, is added after it.
const SENTENCES = {
  setup: (s) => _("%(variant)s: %(south)s (South) against %(north)s (North)", { variant: word(s.variant), south: s.south, north: s.north }),
  options: (s) => _("rule options: %(options)s", { options: Object.entries(s.options).map(([k, v]) => `${word(k)} ${word(v)}`).join(", ") || NONE }),
  start: (s) => _("every hole starts with %(seeds)s seeds", { seeds: s.seeds_per_hole }),
  position: () => _("the game starts from a given position"),
  awaiting: (s) => (s.player ? _("%(decision)s awaited from %(player)s", { decision: word(s.decision), player: who(s.player) })
    : _("%(decision)s awaited", { decision: word(s.decision) })),
  lifted: (s) => _("%(player)s lifts %(seeds)s from %(hole)s", { player: who(s.player), seeds: s.seeds, hole: s.hole }),
  dropped: (s) => _("a seed into %(hole)s (now %(now)s)", { hole: s.hole, now: s.now }),
  relayed: (s) => _("relay: lifts %(seeds)s from %(hole)s", { seeds: s.seeds, hole: s.hole }),
  captured: (s) => _("%(player)s takes %(seeds)s from %(hole)s", { player: who(s.player), seeds: s.seeds, hole: s.hole }),
  seed_stayed: (s) => _("the seed stays in %(hole)s", { hole: s.hole }),
  created: (s) => _("%(kind)s made in %(hole)s for %(player)s", { kind: word(s.kind), hole: s.hole, player: who(s.owner) }),
  wegue_removed: (s) => _("%(hole)s is an ordinary hole again", { hole: s.hole }),
  no_return: (s) => _("%(player)s may not sow %(hole)s straight back", { player: who(s.player), hole: s.hole }),
  serial_capture: (s) => _("the capture goes on from %(hole)s", { hole: s.hole }),
  no_capture: (s) => _("no capture at %(hole)s", { hole: s.hole }),
  sow_again: (s) => _("%(player)s sows again", { player: who(s.player) }),
  turn_ended: (s) => (s.player ? _("%(player)s's turn ends", { player: who(s.player) }) : _("the turn ends")),
  bonus_lost: (s) => _("%(player)s loses the bonus sowing", { player: who(s.player) }),
  passed: (s) => _("%(player)s cannot sow and passes", { player: who(s.player) }),
  to_move: (s) => _("%(player)s to move", { player: who(s.player) }),
  lot_needed: () => _("both remainders are 2: a lot decides the extra hole"),
  round_ended: () => _("the round ends"),
  game_ended: (s) => (s.result ? _("the game ends: %(result)s", { result: RESULTS[s.result] || word(s.result) }) : _("the game ends")),
  match_ended: (s) => _("the match ends: %(player)s wins", { player: who(s.winner) }),
  race: (s) => _("%(player)s wins the race", { player: who(s.winner) }),
  board_set: () => _("the board is set as it stood after the race"),
  opening: (s) => _("%(player)s plays the %(choice)s opening", { player: who(s.player), choice: word(s.choice) }),
  opening_recorded: (s) => _("%(player)s plays the %(choice)s opening", { player: who(s.player), choice: word(s.choice) }),
  lot: (s) => _("%(player)s wins the lot", { player: who(s.winner) }),
  hole_counts: (s) => _("holes next round: %(counts)s", { counts: pairText(s) }),
  next_round: (s) => _("round %(round)s starts; %(player)s moves first", { round: s.round, player: who(s.first_player) }),
  board_reset: (s) => _("every hole is filled with %(seeds)s seeds", { seeds: s.seeds_per_hole }),
  result: (s) => _("result by %(kind)s: %(outcome)s", { kind: word(s.kind), outcome: s.winner ? wins(s.winner) : DRAW })
    + (s.note ? ` (${s.note})` : ""),
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
    if (text && !text.includes("undefined")) return text + (step.why ? " (" + _(step.why) + ")" : "");
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
  if (step.step === "dropped" && step.holes.length > 1) return _("sows %(count)s seeds: %(holes)s", { count: step.holes.length, holes: step.holes.join(" ") });
  return stepText(step);
}

export function stepsOf(payload) {
  if (!payload) return null;
  if (Array.isArray(payload)) return payload;
  return payload.steps || payload.trace || null;
}

export function renderTrace(list, steps, note) {
  if (!steps) {
    list.replaceChildren(element("li", { class: "hint", text: note || _("No explanation is available for this position.") }));
    return;
  }
  if (!steps.length) {
    list.replaceChildren(element("li", { class: "hint", text: _("Nothing happened on the board at this event.") }));
    return;
  }
  list.replaceChildren(...grouped(steps).map((step) => element("li", { "data-step": step.step },
    element("span", { class: "rule", text: step.rule }), " ", lineText(step))));
}
