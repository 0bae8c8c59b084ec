// A team event's page: the team standings in the event's order of C.07's team tie-breaks,
// each team in both scripts, the board prizes, and every round's matches, board by board
// (players, seats, result, a link to each board's game). Read-only, from GET
// /api/tournaments/{id}, …/team-standings, …/board-prizes and …/team-matches; it follows the tournament's live stream
// (GET …/live), so a result recorded on any board redraws it. It prints on A4: the standings,
// then a match sheet a round. Framed on another site (/embed/tournaments/{id}/team-standings)
// it shows the standings alone, every link opening a new tab.
// No rule is decided here: the ranks, scores and seats are the API's.
import { describeProblem, getJSON } from "./api.js";
import { _, ngettext } from "./i18n.js";
import { bothNames, bothNamesText, element, listen } from "./site.js";

const page = document.getElementById("team-page");
const id = page.dataset.tournamentId;
const base = `/api/tournaments/${encodeURIComponent(id)}`;
const byId = (name) => document.getElementById(name);
const embedded = page.dataset.embed === "true";
const away = embedded ? { target: "_blank", rel: "noopener" } : {};

// Each team criterion's title and the abbreviation the table's heading shows (the legend
// under it spells them out), under C.07's codes as the API gives them.
const CRITERIA = {
  MPTS: [_("Match points"), _("MP")],
  GPTS: [_("Game points"), _("GP")],
  BH: [_("Buchholz"), _("BH")],
  "BH:GP": [_("Buchholz on game points"), _("BH-GP")],
  SB: [_("Sonneborn-Berger"), _("SB")],
  "SB:GP": [_("Sonneborn-Berger on game points"), _("SB-GP")],
  EMGSB: [_("Extended Sonneborn-Berger"), _("EMGSB")],
  WIN: [_("Matches won"), _("WIN")],
  PS: [_("Progressive score"), _("PS")],
  DE: [_("Direct encounter"), _("DE")],
};
const named = (code) => CRITERIA[code] || [code, code];
const half = (points) => (points % 1 ? `${Math.floor(points) || ""}½` : String(points));
const criterionValue = (s, code) => (code === "MPTS" ? s.match_points : code === "GPTS" ? half(s.game_points) : s.tiebreaks[code]);

function heading(title, short) {
  return element("th", { scope: "col", class: "shortened", title },
    element("span", { class: "long", text: title }), element("abbr", { class: "short", title, text: short }));
}

function teamName(team) {
  return element("span", { class: "team-name", "data-team": team.number }, bothNames(team.name, team.name_geez));
}

// The event's order first (its primary score leading), then the score it leaves out, if any.
function columnsOf(order) {
  return [...order, ...["MPTS", "GPTS"].filter((code) => !order.includes(code))];
}

function renderStandings(standings) {
  const columns = columnsOf(standings.order);
  const rows = standings.standings.map((s) => element("tr", { "data-team": s.team.number },
    element("td", { text: String(s.rank) }), element("td", {}, teamName(s.team)),
    ...columns.map((code) => element("td", { class: code === standings.order[0] ? "points" : "", "data-code": code,
      text: String(criterionValue(s, code)) })),
    element("td", { text: String(s.played) })));
  const head = element("tr", {}, heading(_("Rank"), "#"), element("th", { scope: "col", text: _("Team") }),
    ...columns.map((code) => heading(...named(code))), heading(_("Matches played"), _("Pl.")));
  byId("team-standings").replaceChildren(element("thead", {}, head), element("tbody", {}, ...rows));
  const spelled = standings.order.map((code) => `${named(code)[1]} ${named(code)[0]}`).join(" · ");
  const ranked = _("Ranked by, in order:");
  byId("team-legend").textContent = `${ranked} ${spelled}`;
}

function boardResult(board, started) {
  if (board.unconfirmed) return _("over: awaiting both players' confirmation");
  if (!board.points) return started.has(board.game_id) ? _("playing") : "";
  return `${half(board.points[0])}–${half(board.points[1])}` + (board.decided_by === "forfeit" ? _(" (forfeit)") : "");
}

// A seat a line-up left empty has no player: the board is forfeited to the other team.
function seatedPlayer(player, seat) {
  const name = player ? bothNames(player.name, player.name_geez) : element("span", { class: "hint", text: _("nobody (board left empty)") });
  return element("td", {}, name,
    element("span", { class: "seat hint", text: ` ${seat === "south" ? _("South") : _("North")}` }));
}

function boardRow(board, started) {
  const second = board.first_seat === "south" ? "north" : "south";
  const number = String(board.board_in_match);
  const link = started.has(board.game_id)
    ? element("a", { href: `/games/${encodeURIComponent(board.game_id)}`, "data-game": board.game_id, text: number, title: _("open the game"), ...away })
    : element("span", { text: number });
  return element("tr", { "data-board": board.board },
    element("td", {}, link), seatedPlayer(board[board.first_seat], board.first_seat),
    seatedPlayer(board[second], second), element("td", { class: "result", text: boardResult(board, started) }));
}

function matchSheet(match, started) {
  const score = `${half(match.score[0])}–${half(match.score[1])}`;
  const state = match.complete
    ? _("Match points %(first)s–%(second)s", { first: match.match_points[0], second: match.match_points[1] })
    : _("in progress");
  const head = element("tr", {}, heading(_("Board"), "#"), element("th", { scope: "col" }, teamName(match.first)),
    element("th", { scope: "col" }, teamName(match.second)), element("th", { scope: "col", text: _("Result") }));
  return element("article", { class: "team-match", "data-match": match.match, "data-complete": String(match.complete) },
    element("h4", {}, teamName(match.first), element("span", { class: "match-score", text: ` ${score} ` }), teamName(match.second)),
    element("p", { class: "hint match-state", text: state }),
    element("div", { class: "scroll" }, element("table", { class: "table team-boards" },
      element("thead", {}, head), element("tbody", {}, ...match.boards.map((board) => boardRow(board, started))))));
}

function renderRounds(rounds, started) {
  const sections = rounds.map((rnd) => element("section", { class: "round team-round", "data-round": rnd.round },
    element("h3", { text: _("Round %(n)s", { n: rnd.round }) + (rnd.complete ? "" : _(" (in progress)")) }),
    rnd.off ? element("p", { class: "hint", text: _("%(team)s has the round off", { team: bothNamesText(rnd.off.name, rnd.off.name_geez) }) }) : null,
    ...rnd.matches.map((match) => matchSheet(match, started))));
  byId("team-rounds").replaceChildren(...(sections.length ? sections
    : [element("p", { class: "hint", text: _("No round has been paired yet.") })]));
}

// Each board's players as the board prizes rank them; a player below the minimum of games
// follows unranked, his games beside the minimum. Names in both scripts from the entrants.
function renderBoardPrizes(prizes, players) {
  const geez = new Map(players.map((p) => [p.number, p.name_geez]));
  const head = element("tr", {}, heading(_("Rank"), "#"), element("th", { scope: "col", text: _("Player") }),
    element("th", { scope: "col", text: _("Team") }), heading(_("Points"), _("Pts")), element("th", { scope: "col", text: _("Games") }),
    element("th", { scope: "col", text: "%" }));
  const boards = prizes.boards.map((board) => element("section", { class: "board-prize", "data-board": board.board },
    element("h3", { text: _("Board %(n)s", { n: board.board }) }),
    board.players.length ? element("div", { class: "scroll" }, element("table", { class: "table standings board-prizes" },
      element("thead", {}, head.cloneNode(true)), element("tbody", {}, ...board.players.map((p) => element("tr", { "data-player": p.number },
        element("td", { text: p.rank === null ? "" : String(p.rank) }), element("td", {}, bothNames(p.name, geez.get(p.number))),
        element("td", {}, teamName(p.team)), element("td", { text: half(p.points) }),
        element("td", { text: p.qualified ? String(p.games) : _("%(games)s of %(minimum)s", { games: p.games, minimum: p.minimum }) }),
        element("td", { text: String(p.percentage) }))))))
      : element("p", { class: "hint", text: _("No game has been played on this board yet.") })));
  byId("board-prizes").replaceChildren(...(boards.length ? boards : [element("p", { class: "hint", text: _("No round has been paired yet.") })]));
}

function renderHeader(t, standings) {
  if (!embedded) byId("team-title").textContent = t.name;
  else byId("team-title").textContent = `${t.name} · ${_("Team standings")}`;
  document.title = `${t.name} · ` + _("Team standings");
  const status = { registration: _("registration"), in_progress: _("in progress"), finished: _("finished") }[standings.status];
  byId("team-meta").textContent = [
    _("Team round robin"), status,
    ngettext("%(count)s board a match", "%(count)s boards a match", t.team_boards),
    ngettext("%(count)s team", "%(count)s teams", t.teams.length),
  ].filter(Boolean).join(" · ");
}

async function load() {
  const [{ data: t }, { data: standings }] = await Promise.all([getJSON(base), getJSON(`${base}/team-standings`)]);
  renderHeader(t, standings);
  renderStandings(standings);
  if (!embedded) {
    const [{ data: matches }, { data: games }, { data: prizes }] = await Promise.all([
      getJSON(`${base}/team-matches`), getJSON(`/api/games?tournament=${encodeURIComponent(id)}&limit=1000`),
      getJSON(`${base}/board-prizes`),
    ]);
    renderBoardPrizes(prizes, t.players);
    renderRounds(matches.rounds, new Set(games.games.map((g) => g.id)));
    byId("team-tournament-link").href = `/tournaments/${encodeURIComponent(id)}`;
    byId("team-embed-link").href = `/embed/tournaments/${encodeURIComponent(id)}/team-standings`;
  }
  page.dataset.ready = "true";
  page.dataset.updates = String(Number(page.dataset.updates || 0) + 1);
}

let refreshTimer = null;
function refresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => load().catch(() => {}), 30);
}

if (!embedded) byId("team-print").addEventListener("click", () => window.print());
// data-live: the stream is open, so every result recorded from now on redraws the page.
load().then(() => listen(`${base}/live`, { board: refresh, tournament: refresh })).then(() => {
  page.dataset.live = "true";
}).catch((error) => {
  byId("team-title").textContent = error.status === 404 ? _("There is no team event %(id)s", { id }) : _("The team event could not be loaded");
  byId("team-meta").replaceChildren(element("span", { class: "error", text: describeProblem(error) }));
  page.dataset.ready = "error";
});
