// A team's line-up for one round as a form, shared by the console (the arbiter) and the
// captain's page: a choice per board, board 1 first, among the team's players and then its
// reserves in their fixed order, or "empty". The form is sent as the API takes it (POST
// …/rounds/{r}/lineups `{team, players}`); whether the line-up keeps the board order, who may
// hand it in and until when are the API's to say, and its refusal is shown in the form
// (console-common.js, showProblem: beside the field it names, `players` or `round`).
import { post } from "./api.js";
import { bothNamesText, element } from "./dom.js";
import { _ } from "./i18n.js";

// The team's members in its fixed order: the board players, then the reserves.
function members(t, entered) {
  const names = new Map(t.players.map((p) => [p.number, bothNamesText(p.name, p.name_geez)]));
  const reserves = new Set(entered.reserves);
  return [...entered.players, ...entered.reserves].map((number) => ({
    number,
    text: reserves.has(number)
      ? _("%(number)s. %(name)s (reserve)", { number, name: names.get(number) || "" })
      : `${number}. ${names.get(number) || ""}`,
  }));
}

function boardChoice(team, k, options, chosen) {
  const id = `lineup-${team}-board-${k}`;
  const select = element("select", { id, name: `board-${k}`, "data-board": k },
    element("option", { value: "", text: _("empty: no player (a forfeit)") }),
    ...options.map((m) => element("option", { value: String(m.number), text: m.text })));
  select.value = chosen == null ? "" : String(chosen);
  return element("p", { class: "lineup-board" },
    element("label", { htmlFor: id, text: _("Board %(board)s", { board: k }) }), " ", select);
}

// The form of team ``entered``'s line-up for round ``round``, ``chosen`` its players a board
// (null: empty) as they stand; ``title`` (a text, a node or a list of them) heads it.
export function lineupForm(t, entered, round, chosen, title) {
  const options = members(t, entered);
  const boards = Array.from({ length: t.team_boards }, (unused, i) => boardChoice(entered.number, i + 1, options, chosen[i]));
  const legend = element("legend", {}, ...[title].flat());
  const roundId = `lineup-${entered.number}-round`;
  return element("form", { class: "lineup-form console-form", "data-team": entered.number, "data-round": round, noValidate: true },
    element("fieldset", { name: "players" }, legend, ...boards),
    element("p", { class: "lineup-round" }, element("label", { htmlFor: roundId, text: _("Round") }), " ",
      element("output", { id: roundId, name: "round", text: String(round) })),
    element("button", { type: "submit", class: "primary", "data-action": "lineup", "data-team": entered.number,
      text: _("Hand in the line-up") }),
    element("p", { class: "error", role: "alert", "data-problem": "", hidden: true }));
}

// The line-up the form holds, board 1 first: an entrant number or null for an empty board.
export function chosenPlayers(form) {
  return [...form.querySelectorAll("select[data-board]")].map((select) => (select.value === "" ? null : Number(select.value)));
}

export function handIn(base, form) {
  const body = { team: Number(form.dataset.team), players: chosenPlayers(form) };
  return post(`${base}/rounds/${form.dataset.round}/lineups`, body);
}
