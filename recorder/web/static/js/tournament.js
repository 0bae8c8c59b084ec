// The tournament page: standings with the organiser's tiebreaks, the crosstable, and
// every round's pairings with links to the games on its boards. Read-only: all of it
// comes from the tournaments API (GET /api/tournaments/{id}, /standings, /crosstable)
// and the list of the tournament's games (GET /api/games?tournament=). It follows the
// tournament's live stream (GET …/live): a move or result on any board redraws it.
import { describeProblem, getJSON, post } from "./api.js";
import { showTimeControl, timeControlLine } from "./clock.js";
import { _, date } from "./i18n.js";
import { categoryRule, categoryTitle, prizeName, sharedText, sharingText, totalsText } from "./prizes.js";
import { bothNames, bothNamesText, crossMark, element, listen, pageAccess } from "./site.js";
import { openDisputeItems } from "./signoffs.js";

const page = document.getElementById("tournament-page");
const id = page.dataset.tournamentId;
const base = `/api/tournaments/${encodeURIComponent(id)}`;
const byId = (name) => document.getElementById(name);

const RESULTS = { south_wins: "1–0", north_wins: "0–1", draw: "½–½", double_forfeit: _("0–0 (double forfeit)") };
const label = (name) => _(name).replaceAll("_", " ");
// A tournament's format and status as they come from the API, for the catalogs (label() shows them).
export const TOURNAMENT_WORDS = [
  _("round_robin"), _("double_round_robin"), _("swiss"), _("manual"), _("registration"), _("in_progress"), _("finished"),
  _("knockout"), _("team_round_robin"), _("team_swiss"),
];
// Each tiebreak's title, capitalised as "Points" is, and the abbreviation a phone's
// narrow table shows instead (the legend under it spells them out).
const TIEBREAKS = {
  buchholz: [_("Buchholz"), _("Buch.")],
  sonneborn_berger: [_("Sonneborn-Berger"), _("S-B")],
  direct_encounter: [_("Direct encounter"), _("DE")],
  wins: [_("Wins"), _("W")],
  round_difference: [_("Round difference"), _("RD")],
  hole_difference: [_("Hole difference"), _("HD")],
  // C.07's codes of the recommended lists: in English the codes are the abbreviations
  "BH/C1": [_("Buchholz cut 1"), _("BH/C1")],
  BH: [_("Buchholz"), _("BH")],
  DE: [_("Direct encounter"), _("DE")],
  WIN: [_("Wins"), _("WIN")],
  SB: [_("Sonneborn-Berger"), _("SB")],
  KS: [_("Koya system"), _("KS")],
  PS: [_("Progressive score"), _("PS")],
  BWG: [_("Wins as North (Black)"), _("BWG")],
  LOTS: [_("Drawing of lots"), _("LOTS")],
};
const capitalised = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const tiebreakNames = (name) => TIEBREAKS[name] || [capitalised(label(name)), capitalised(label(name))];

// A heading that a phone shows abbreviated (CSS picks one of the two).
function shortened(title, short, kind = "") {
  return element("th", { scope: "col", class: `shortened ${kind}`.trim(), title },
    element("span", { class: "long", text: title }), element("abbr", { class: "short", title, text: short }));
}

function gameLink(gameId, text, started) {
  if (!gameId || !started.has(gameId)) return element("span", { text });
  return element("a", { href: `/games/${encodeURIComponent(gameId)}`, "data-game": gameId, text });
}

function table(target, headings, rows) {
  const cell = (heading) => (heading instanceof Node ? heading : element("th", { scope: "col", text: heading }));
  const head = element("tr", {}, ...headings.map(cell));
  byId(target).replaceChildren(element("thead", {}, head), element("tbody", {}, ...rows));
}

function renderHeader(t, variants) {
  const variant = variants.find((v) => v.name === t.variant);
  byId("tournament-title").textContent = t.name;
  document.title = `${t.name} · ` + _("Mancala records");
  const dates = [date(t.start_date), date(t.end_date)].filter(Boolean).join(_(" to "));
  const rounds = t.rounds_planned ? _("%(paired)s of %(planned)s rounds paired", { paired: t.rounds.length, planned: t.rounds_planned }) : "";
  byId("tournament-meta").textContent = [variant ? variant.title : t.variant, label(t.format), t.site, dates,
    label(t.status), rounds, _("%(count)s players", { count: t.players.length })].filter(Boolean).join(" · ");
  showTimeControl(byId("tournament-time-control"), t.time_control, timeControlLine);
}

// An entrant who is a registry player links to his page (docs/players.md).
// Each name in both scripts where the registry has the Ge'ez (dom.js, bothNames).
function playerName(players, number, name, geez) {
  const entrant = players.find((p) => p.number === number);
  const shown = bothNames(name, geez);
  if (!entrant || !entrant.player_id) return shown;
  return element("a", { href: `/players/${encodeURIComponent(entrant.player_id)}`, "data-player-id": entrant.player_id }, shown);
}

function renderStandings(standings, players) {
  const withdrawn = new Set(players.filter((p) => p.withdrawn).map((p) => p.number));
  const rows = standings.standings.map((s) => element("tr", { "data-player": s.number },
    element("td", { text: String(s.rank) }),
    element("td", {}, playerName(players, s.number, s.name, s.name_geez), withdrawn.has(s.number) ? _(" (withdrawn)") : ""),
    element("td", { class: "wide-only", text: s.federation || "" }),
    element("td", { class: "wide-only", text: s.rating ?? "" }),
    element("td", { class: "points", text: String(s.points) }),
    ...standings.tiebreaks.map((name) => element("td", { text: String(s.tiebreaks[name]) }))));
  const wideOnly = (text) => element("th", { scope: "col", class: "wide-only", text });
  table("standings", [shortened(_("Rank"), "#"), _("Player"), wideOnly(_("Fed.")), wideOnly(_("Rating")), shortened(_("Points"), _("Pts")),
    ...standings.tiebreaks.map((name) => shortened(...tiebreakNames(name), "tiebreak"))], rows);
  const spelled = ([title, short]) => (short === title ? title : `${short} ${title}`);
  const seed = standings.lots_seed ? [_("lots drawn with the seed %(seed)s", { seed: standings.lots_seed })] : [];
  byId("standings-legend").textContent = [_("Tie-breaks, in order:"), standings.tiebreaks.map((name) => spelled(tiebreakNames(name))).join(" · "), ...seed].join(" ");
}

// The absences declared for rounds still to pair: each player left out with his bye.
function renderAbsences(t) {
  const names = new Map(t.players.map((p) => [p.number, bothNamesText(p.name, p.name_geez)]));
  const items = t.absences.map((a) => element("li", { "data-player": a.player,
    text: _("%(name)s will miss round %(round)s (bye: %(points)s)", { name: names.get(a.player), round: a.round, points: a.points }) }));
  byId("tournament-absences").replaceChildren(...(items.length ? [element("h3", { text: _("Declared absences") }), element("ul", {}, ...items)] : []));
}

// A round robin is the classic square (row against column, by place); a Swiss lists
// each round as the opponent's place, the seat (s/n) and the result, as the CLI does.
function renderCrosstable(crosstable, started) {
  const square = crosstable.format === "round_robin" || crosstable.format === "double_round_robin";
  return square ? squareCrosstable(crosstable.rows, started) : roundCrosstable(crosstable.rows, started);
}

function squareCrosstable(rows, started) {
  const places = rows.map((r) => r.place);
  const body = rows.map((row) => {
    const against = new Map(places.map((p) => [p, []]));
    for (const cell of row.cells) {
      if (cell.opponent_place != null) against.get(cell.opponent_place).push(cell);
    }
    const cells = places.map((place) => {
      if (place === row.place) return element("td", { class: "self", text: "×" });
      return element("td", {}, ...against.get(place).map((cell) => gameLink(cell.game_id, cell.mark, started)));
    });
    return element("tr", {}, element("td", { text: String(row.place) }), element("td", {}, bothNames(row.name, row.name_geez)),
      ...cells, element("td", { class: "points", text: String(row.points) }));
  });
  table("crosstable", ["", _("Player"), ...places.map(String), _("Points")], body);
}

function roundCrosstable(rows, started) {
  const rounds = Math.max(0, ...rows.map((r) => r.cells.length));
  const body = rows.map((row) => element("tr", {},
    element("td", { text: String(row.place) }), element("td", {}, bothNames(row.name, row.name_geez)),
    ...row.cells.map((cell) => element("td", {}, cell.kind === "bye" || cell.kind === "absent" ? crossMark(cell)
      : gameLink(cell.game_id, crossMark(cell), started))),
    element("td", { class: "points", text: String(row.points) })));
  table("crosstable", ["", _("Player"), ...Array.from({ length: rounds }, (unused, i) => _("R%(n)s", { n: i + 1 })), _("Points")], body);
}

function renderRounds(t, started) {
  const sections = t.rounds.slice().reverse().map((round) => {
    // On a phone the game column gives way: the board's number links to its game.
    const rows = round.boards.map((board) => element("tr", { "data-board": board.board },
      element("td", {}, gameLink(board.game_id, String(board.board), started)),
      element("td", {}, bothNames(board.south.name, board.south.name_geez)),
      element("td", {}, bothNames(board.north.name, board.north.name_geez)),
      element("td", { text: board.unconfirmed ? _("over: awaiting both players' confirmation")
        : board.result ? RESULTS[board.result] + (board.decided_by === "forfeit" ? _(" (forfeit)") : "") : "" }),
      element("td", { class: "wide-only" }, started.has(board.game_id) ? gameLink(board.game_id, _("open the game"), started)
        : element("span", { class: "hint", text: _("not started") }))));
    const head = element("tr", {}, shortened(_("Board"), "#"), ...[_("South"), _("North"), _("Result")].map((text) => element("th", { scope: "col", text })),
      element("th", { scope: "col", class: "wide-only", text: _("Game") }));
    const byes = round.byes.map((bye) => element("li", { text: _("%(name)s: bye (%(points)s)", { name: bothNamesText(bye.name, bye.name_geez), points: bye.points }) }));
    return element("section", { class: "round", "data-round": round.round },
      element("h3", { text: _("Round %(n)s", { n: round.round }) + (round.complete ? "" : _(" (in progress)")) }),
      element("p", {}, element("a", { class: "scoresheets-link",
        href: `/tournaments/${encodeURIComponent(id)}/rounds/${round.round}/scoresheets`,
        text: _("Empty scoresheets to print, one per board") })),
      element("div", { class: "scroll" }, element("table", { class: "table pairings" }, element("thead", {}, head), element("tbody", {}, ...rows))),
      byes.length ? element("ul", { class: "byes" }, ...byes) : null);
  });
  byId("tournament-rounds").replaceChildren(...(sections.length ? sections
    : [element("p", { class: "hint", text: _("No round has been paired yet.") })]));
}

// Categories and prizes (docs/tournaments.md): one category's standings, the prize list.
function renderPrizes(prizes, players) {
  const panel = byId("prizes-panel");
  panel.hidden = !prizes.categories.length && !prizes.prizes.length;
  if (panel.hidden) return Promise.resolve();
  const currency = () => (prizes.currency ? element("span", { translate: "no", text: ` ${prizes.currency}` }) : "");
  const rows = prizes.awards.map((a) => element("tr", { "data-player": a.number },
    element("td", { text: String(a.rank) }), element("td", {}, playerName(players, a.number, a.name, a.name_geez)),
    element("td", { text: prizeName(prizes.categories, a) }), element("td", { text: sharedText(a) }),
    element("td", { class: "points" }, String(a.amount), currency())));
  table("prize-list", [_("Rank"), _("Player"), _("Prize"), _("Shared"), _("Amount")], rows);
  byId("prize-rule").textContent = sharingText(prizes);
  byId("prize-totals").textContent = totalsText(prizes);
  byId("prizes-print").href = `/tournaments/${encodeURIComponent(id)}/print?list=prizes`;
  return renderCategoryChoice(prizes.categories, players);
}

function renderCategoryChoice(categories, players) {
  const choice = byId("category-choice");
  const wanted = choice.value || new URLSearchParams(window.location.search).get("category");
  choice.replaceChildren(...categories.map((c) => element("option", { value: c.code, text: categoryTitle(c) })));
  choice.closest("p").hidden = !categories.length;
  if (categories.some((c) => c.code === wanted)) choice.value = wanted;
  choice.onchange = () => renderCategory(categories, players).catch(() => {});
  return renderCategory(categories, players);
}

async function renderCategory(categories, players) {
  const code = byId("category-choice").value;
  const category = categories.find((c) => c.code === code);
  byId("category-print").hidden = !category;
  if (!category) return;
  const { data } = await getJSON(`${base}/categories/${encodeURIComponent(code)}/standings`);
  const rows = data.standings.map((s) => element("tr", { "data-player": s.number },
    element("td", { text: String(s.rank) }), element("td", { text: String(s.overall_rank) }),
    element("td", {}, playerName(players, s.number, s.name, s.name_geez)), element("td", { class: "points", text: String(s.points) })));
  table("category-standings", [_("Place"), _("Overall rank"), _("Player"), _("Points")], rows);
  byId("category-rule").textContent = categoryRule(category);
  byId("category-print").href = `/tournaments/${encodeURIComponent(id)}/print?list=standings&category=${encodeURIComponent(code)}`;
}

async function init() {
  const [{ data: t }, { data: standings }, { data: crosstable }, { data: games }, { data: variants }] = await Promise.all([
    getJSON(base), getJSON(`${base}/standings`), getJSON(`${base}/crosstable`),
    getJSON(`/api/games?tournament=${encodeURIComponent(id)}&limit=1000`), getJSON("/api/variants"),
  ]);
  const { data: prizes } = await getJSON(`${base}/prizes`);
  const started = new Set(games.games.map((g) => g.id));
  renderHeader(t, variants.variants);
  renderStandings(standings, t.players);
  renderCrosstable(crosstable, started);
  renderRounds(t, started);
  await renderPrizes(prizes, t.players);
  renderAbsences(t);
  await renderPlayerAndArbiter(t);
  byId("projector-link").href = `/tournaments/${encodeURIComponent(id)}/projector`;
  byId("bracket-link").href = `/tournaments/${encodeURIComponent(id)}/bracket`;
  byId("bracket-link-line").hidden = t.format !== "knockout";
  byId("team-link").href = `/tournaments/${encodeURIComponent(id)}/teams`;
  byId("team-link-line").hidden = !t.team_boards;  // a team event of either format
  byId("next-stage-line").hidden = !t.next_stages.length;
  byId("next-stages").replaceChildren(...t.next_stages.map((stage) =>
    element("a", { href: `/tournaments/${encodeURIComponent(stage.id)}/bracket`, "data-stage": stage.id, text: stage.name })));
  page.dataset.ready = "true";
  page.dataset.updates = String(Number(page.dataset.updates || 0) + 1);
}

// A player's sign-in (his badge) checks him in for the next round; the arbiter's token
// (or the admin's) sees the open disputes of the boards and the badges to print.
async function renderPlayerAndArbiter(t) {
  const { principal } = await pageAccess;
  const mine = principal && principal.tournament_id === id;
  const next = t.rounds.length + 1;
  const checkIn = byId("check-in");
  checkIn.hidden = !(mine && principal.kind === "player" && (!t.rounds_planned || next <= t.rounds_planned));
  if (!checkIn.hidden) {
    const entrant = t.players.find((p) => p.number === principal.player);
    byId("check-in-title").textContent = _("%(name)s: check in for round %(round)s", { name: entrant ? entrant.name : principal.holder, round: next });
    const said = t.check_ins.some((c) => c.round === next && c.player === principal.player) ? _("You have checked in: present.")
      : t.absences.some((a) => a.round === next && a.player === principal.player) ? _("You said you will miss this round.") : "";
    byId("check-in-status").textContent = said;
    byId("check-in-present").onclick = () => checkInAs(next, true);
    byId("check-in-absent").onclick = () => checkInAs(next, false);
  }
  const arbiter = principal && (principal.kind === "admin" || (mine && principal.kind === "arbiter"));
  byId("disputes-panel").hidden = !arbiter;
  if (!arbiter) return;
  byId("badges-link").href = `/tournaments/${encodeURIComponent(id)}/badges`;
  const { data } = await getJSON(`${base}/disputes`);
  byId("open-disputes").replaceChildren(...openDisputeItems(data.disputes));
}

async function checkInAs(round, present) {
  try {
    await post(`${base}/rounds/${round}/check-in`, { present });
    refresh();
  } catch (error) {
    byId("check-in-status").textContent = describeProblem(error);
  }
}

let refreshTimer = null;
function refresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => init().catch(() => {}), 30);
}

init().then(() => listen(`${base}/live`, { board: refresh, tournament: refresh })).catch((error) => {
  byId("tournament-title").textContent = error.status === 404 ? _("There is no tournament %(id)s", { id }) : _("The tournament could not be loaded");
  byId("tournament-meta").replaceChildren(element("span", { class: "error", text: describeProblem(error) }));
  page.dataset.ready = "error";
});
