// The record as the game page lists it, derived from the event log alone: the effective
// line (moves not withdrawn by a retraction), the corrections, and the comments.

import { PLAYER } from "./site.js";

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
    case "game_created": return "Start";
    case "sowed": return `${SIDE[p.player]} ${p.hole}`;
    case "opening_played": return `{opening ${p.choice}}`;
    case "race_recorded": return `{race ${p.winner} …}`;
    case "lot_drawn": return `{lot ${p.winner}}`;
    case "round_started": return `{round ${p.first_player}${p.allocation ? " alloc …" : ""}}`;
    case "result_recorded": return `{result ${p.kind} ${p.winner || "draw"}}`;
    case "moves_retracted": return `Retracted ${p.count} move${p.count === 1 ? "" : "s"}: ${p.reason}`;
    case "annotated": return `Comment: ${p.text}`;
    default: return event.type;
  }
}

export function resultText(state) {
  if (!state.game_over) return "";
  const how = state.result_reason ? ` (${state.result_reason})` : "";
  const score = state.score ? `, ${state.score.south}–${state.score.north}` : "";
  const winner = { south_wins: "South wins", north_wins: "North wins", draw: "Draw" }[state.result] || state.result;
  return `${winner}${how}${score}`;
}

export function statusText(state, names) {
  const who = (player) => `${PLAYER[player]}${names[player] ? ` (${names[player]})` : ""}`;
  if (state.game_over) return `Game over: ${resultText(state)}`;
  const round = state.rounds && state.rounds.length > 1 ? `Round ${state.round} · ` : "";
  switch (state.awaiting) {
    case "opening": return `${round}${who(state.to_move)} chooses the opening`;
    case "race": return `${round}The race result is awaited`;
    case "lot": return `${round}The round is over: a lot is awaited`;
    case "next_round": return `${round}The round is over: the next round is awaited`;
    default: break;
  }
  if (!state.to_move) return `${round}Nobody is to move`;
  return `${round}${who(state.to_move)} to move`;
}
