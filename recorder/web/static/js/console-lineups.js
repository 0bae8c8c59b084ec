// A team event's line-ups on its console: for the next round, each team's line-up as the
// pairing would take it now (GET …/rounds/{r}/lineups: the one handed in, else its first
// boards), editable board by board among the team's players and reserves, "empty" allowed,
// and handed in with one tap (POST …/rounds/{r}/lineups); each team's captain's card; the
// boards a line-up left empty, shown with the pairing and the round's results (no game:
// a forfeit). The rules of a line-up (the fixed board order, an empty board a last one, the
// deadline) are the API's: its refusal is shown beside the field it names.
import { getJSON } from "./api.js";
import { bothNames, bothNamesText, element } from "./dom.js";
import { _ } from "./i18n.js";
import { lineupForm } from "./lineup-form.js";

const byId = (name) => document.getElementById(name);
const RESULT_MARKS = { south_wins: "1–0", draw: "½–½", north_wins: "0–1", double_forfeit: "0–0" };

export function isTeamEvent(t) {
  return Boolean(t.team_boards);
}

// The round whose line-ups are still open: the next one, while the event pairs rounds.
export function openRound(t) {
  const planned = t.rounds_planned || 0;
  if (!isTeamEvent(t) || t.status === "finished" || (planned && t.rounds.length >= planned)) return null;
  return t.rounds.length + 1;
}

// The line-ups of the open round, for its arbiter or the admin (the API keeps them from
// everyone else until the round is paired).
export async function readLineups(t, base, mayWrite) {
  const round = openRound(t);
  if (!round || !mayWrite) return null;
  return (await getJSON(`${base}/rounds/${round}/lineups`)).data;
}

function lineupTitle(entered, lineup) {
  const state = lineup.handed_in ? _("handed in") : _("none handed in: its first boards");
  return [element("strong", {}, bothNames(entered.name, entered.name_geez)), ` · ${state}`];
}

function captainCardLink(id, entered) {
  return element("a", { class: "captain-card-link", "data-team": entered.number,
    href: `/tournaments/${encodeURIComponent(id)}/teams/${entered.number}/captain-card`,
    text: _("The captain's card of team %(team)s", { team: entered.number }) });
}

// A team's form is drawn again only when its line-up changed on the service: a live update
// arriving while the arbiter chooses must not undo his choices.
function teamPart(id, t, lineups, lineup, handIn) {
  const entered = t.teams.find((e) => e.number === lineup.team);
  const key = JSON.stringify([lineups.round, lineup.players, lineup.handed_in, t.team_boards]);
  const shown = byId("lineups").querySelector(`.lineup-team[data-team="${lineup.team}"]`);
  if (shown && shown.dataset.key === key) return shown;
  const form = lineupForm(t, entered, lineups.round, lineup.players, lineupTitle(entered, lineup));
  form.addEventListener("submit", (event) => { event.preventDefault(); handIn(form); });
  return element("div", { class: "lineup-team", "data-team": lineup.team, "data-key": key,
    "data-handed-in": String(lineup.handed_in) }, form, element("p", {}, captainCardLink(id, entered)));
}

export function renderLineups(id, t, lineups, handIn) {
  const part = byId("lineups-part");
  part.hidden = !lineups;
  if (!lineups) return;
  byId("lineups-title").textContent = _("Line-ups for round %(n)s", { n: lineups.round });
  byId("lineups").replaceChildren(...lineups.lineups.map((lineup) => teamPart(id, t, lineups, lineup, handIn)));
}

function seatName(seat) {
  return seat ? bothNamesText(seat.name, seat.name_geez) : _("empty");
}

// A board a line-up left empty: no game, its result a forfeit, as the round stores it (or,
// for a proposed round, as the pairing would store it).
export function emptyBoardItems(round) {
  return (round.empty_boards || []).map((e) => element("li", { class: "empty-board", "data-board": e.board, "data-result": e.result || "" },
    _("Board %(board)s: %(south)s – %(north)s: an empty board, lost by forfeit (%(result)s)",
      { board: e.board, south: seatName(e.south), north: seatName(e.north), result: RESULT_MARKS[e.result] || "" })));
}
