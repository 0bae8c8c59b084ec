// The record as the game page lists it, derived from the event log alone: the effective
// line (moves not withdrawn by a retraction), the corrections, and the comments.

import { PLAYER } from "./dom.js";
import { clockEventText } from "./clock.js";
import { _, ngettext } from "./i18n.js";

const word = (text) => _(text); // a result's way, as the catalogs give it (i18n.js GAME_WORDS)

// The events that change the board or the course of the game (recorder/events.py MOVE_TYPES).
export const MOVE_TYPES = new Set([
  "sowed", "race_recorded", "opening_played", "lot_drawn", "round_started", "result_recorded",
]);

// A retraction withdraws the latest `count` effective moves; the log keeps them.
export function effectiveLine(events) {
  const moves = [];
  const corrections = [];
  const comments = new Map();
  for (const event of events) {
    if (MOVE_TYPES.has(event.type)) {
      moves.push(event);
    } else if (event.type === "moves_retracted") {
      corrections.push({ event, withdrawn: moves.splice(moves.length - event.payload.count) });
    } else if (event.type === "annotated") {
      const at = moves.length ? moves[moves.length - 1].seq : 1;
      comments.set(at, [...(comments.get(at) || []), event.payload.text]);
    }
  }
  return { moves, corrections, comments };
}

const SIDE = { south: "S", north: "N" };

// A move in the notation's words (docs/notation.md), without turn numbers: the labels the
// move list shows until the service's own notation of the moves (GET …/moves) arrives.
export function moveText(event) {
  const p = event.payload;
  switch (event.type) {
    case "game_created": return _("Start");
    case "sowed": return `${SIDE[p.player]} ${p.hole}`;
    case "opening_played": return decisionText("opening", p);
    case "race_recorded": return decisionText("race", p);
    case "lot_drawn": return decisionText("lot", p);
    case "round_started": return decisionText("next_round", p);
    case "result_recorded": return decisionText("result", p);
    case "moves_retracted": return ngettext("Retracted %(count)s move: %(reason)s", "Retracted %(count)s moves: %(reason)s", p.count, { reason: p.reason });
    case "annotated": return _("Comment: %(text)s", { text: p.text });
    case "clocks_paused": case "clocks_resumed": return clockEventText(event);
    default: return event.type;
  }
}

// A decision (GEN-24..28) in the reader's words, from a command's body or its event's
// payload alike (the notation's braces, "{race south …}", are for files, not readers).
export function decisionText(type, p) {
  switch (type) {
    case "opening": return _("Opening: %(choice)s", { choice: word(p.choice) });
    case "race": return _("%(player)s wins the race", { player: PLAYER[p.winner] });
    case "lot": return _("%(player)s wins the lot", { player: PLAYER[p.winner] });
    case "next_round": return _("Next round: %(player)s first", { player: PLAYER[p.first_player] });
    case "result": return p.winner ? `${WINS[p.winner]} (${word(p.kind)})` : `${_("Draw")} (${word(p.kind)})`;
    default: return type;
  }
}

const WINS = { south: _("South wins"), north: _("North wins") };

// A command not yet recorded (queued offline), in the same words; its player is not
// known until the server has folded the moves before it.
export function commandText(command) {
  switch (command.type) {
    case "sow": return _("sow %(hole)s", { hole: command.hole });
    case "opening": case "race": case "lot": case "next_round": case "result": return decisionText(command.type, command);
    case "retract": return _("retract %(count)s: %(reason)s", { count: command.count, reason: command.reason });
    case "annotate": return _("comment: %(text)s", { text: command.text });
    case "pause_clocks": return _("Pause the clocks");
    case "resume_clocks": return _("Resume the clocks");
    default: return command.type;
  }
}

// The effective moves grouped into turns as the notation groups them: a cell starts at a
// numbered sowing ("3. N d2") or a decision; a sowing that continues the turn ("c2")
// joins the cell before it. Without the notation (offline) consecutive sowings by the
// same player make a cell. Each item: { label, plies: [{ index, text, rest }] }.
export function turnsOf(plies, notation) {
  const cells = [];
  let previous = null;
  plies.forEach((event, index) => {
    const ply = plyParts(event, notation.get(event.seq), index);
    const continues = index > 0 && previous && (notation.has(event.seq) ? ply.continues
      : event.type === "sowed" && previous.type === "sowed" && previous.payload.player === event.payload.player);
    if (continues && cells.length) cells[cells.length - 1].plies.push(ply);
    else cells.push({ label: ply.label, plies: [ply] });
    previous = event;
  });
  return cells;
}

const NUMBERED = /^(\d+\.\s+[SN])\s+(\S+)(.*)$/;

function plyParts(event, written, index) {
  if (index === 0) return { index, text: _("Start"), rest: "", label: "", continues: false };
  if (!written) {
    const text = moveText(event);
    return event.type === "sowed"
      ? { index, text: event.payload.hole, rest: "", label: SIDE[event.payload.player], continues: false }
      : { index, text, rest: "", label: "", continues: false };
  }
  if (written.startsWith("{")) return { index, text: moveText(event), rest: "", label: "", continues: false };
  const numbered = written.match(NUMBERED);
  if (numbered) return { index, text: numbered[2], rest: numbered[3].trim(), label: numbered[1], continues: false };
  const [hole, ...rest] = written.split(" ");
  return { index, text: hole, rest: rest.join(" "), label: "", continues: true };
}

export function resultText(state) {
  if (!state.game_over) return "";
  const how = state.result_reason ? ` (${word(state.result_reason)})` : "";
  const score = state.score ? `, ${state.score.south}–${state.score.north}` : "";
  const winner = { south_wins: _("South wins"), north_wins: _("North wins"), draw: _("Draw") }[state.result] || state.result;
  return `${winner}${how}${score}`;
}

export function statusText(state, names) {
  const who = (player) => `${PLAYER[player]}${names[player] ? ` (${names[player]})` : ""}`;
  if (state.game_over) return _("Game over: %(result)s", { result: resultText(state) });
  const round = state.rounds && state.rounds.length > 1 ? _("Round %(n)s", { n: state.round }) + " · " : "";
  switch (state.awaiting) {
    case "opening": return round + _("%(player)s chooses the opening", { player: who(state.to_move) });
    case "race": return round + _("The race result is awaited");
    case "lot": return round + _("The round is over: a lot is awaited");
    case "next_round": return round + _("The round is over: the next round is awaited");
    default: break;
  }
  if (!state.to_move) return round + _("Nobody is to move");
  return round + _("%(player)s to move", { player: who(state.to_move) });
}

// The game's rule options in words, from /api/variants' labels ("A lone seed sent across
// an end: may not come straight back"), never the raw names and values.
export function optionsText(variant, options) {
  const described = (variant && variant.options) || {};
  const parts = Object.entries(options || {}).map(([name, value]) => {
    const option = described[name];
    if (!option) return `${name.replaceAll("_", " ")}: ${value}`;
    const index = option.choices.findIndex((choice) => choice === value);
    const words = index >= 0 && option.choice_labels ? option.choice_labels[index] : String(value);
    return `${option.label}: ${words}`;
  });
  return parts.length ? _("Rules: %(options)s", { options: parts.join(" · ") }) : "";
}
