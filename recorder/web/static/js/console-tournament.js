// One tournament's console, for its arbiter and the admin: players (the registry searched,
// an entry, a new registration with the registry's duplicate warning, a withdrawal, an
// absence for one round, players who may not meet), the next round paired and published
// with the pairing checker's findings, the recording tablets' sign-in cards, the results
// of each board (from the tablets, live, or entered here as events), the lists to print
// or download, and the tournament finished. A knock-out's bracket, hand-over and lots are
// console-knockout.js's; a team event's teams and team standings console-teams.js's, its
// line-ups, captains' cards and empty boards console-lineups.js's.
//
// One path: each control is one request to the API the command line uses, and the page
// shows its answer or its refusal (in the reader's language, beside the field at fault).
// No rule is decided here: who may be paired, when a round may be paired, what a result
// counts — the API says.
import { Conflict, describeProblem, getJSON, post } from "./api.js";
import { clearProblem, showProblem, typedNumber } from "./console-common.js";
import { renderKnockout, seedFromStage } from "./console-knockout.js";
import { emptyBoardItems, isTeamEvent, readLineups, renderLineups } from "./console-lineups.js";
import { enterTeam, findTeams, readTeamStandings, renderTeams } from "./console-teams.js";
import { replaceChanged } from "./dom.js";
import { _ } from "./i18n.js";
import { handIn } from "./lineup-form.js";
import { bothNames, bothNamesText, element, listen, pageAccess } from "./site.js";
import { openDisputeItems } from "./signoffs.js";

const page = document.getElementById("console-page");
const id = page.dataset.tournamentId;
const base = `/api/tournaments/${encodeURIComponent(id)}`;
const byId = (name) => document.getElementById(name);
const state = { t: null, started: new Set(), round: null, checked: null, proposal: null };

const RESULT_MARKS = { south_wins: "1–0", draw: "½–½", north_wins: "0–1", double_forfeit: "0–0" };
const FORMAT_WORDS = { swiss: _("Swiss"), round_robin: _("Round robin"), double_round_robin: _("Double round robin"), manual: _("Paired by hand"),
  knockout: _("Knock-out"), team_round_robin: _("Team round robin"), team_swiss: _("Team Swiss") };
const STATUS_WORDS = { registration: _("registration"), in_progress: _("in progress"), finished: _("finished") };

// A write to the API from a control: the form's problem line cleared, the answer awaited,
// the console drawn again; a refusal shown in the form the control belongs to.
async function act(form, send, refused = (error) => showProblem(form, error)) {
  clearProblem(form);
  page.dataset.busy = "true";
  try {
    const answer = await send();
    await load();
    return answer;
  } catch (error) {
    refused(error);
    return null;
  } finally {
    page.dataset.busy = "false";
  }
}

// -- Players -------------------------------------------------------------------------

function entryRating() {
  const value = byId("entry-rating").value.trim();
  return value === "" ? {} : { rating: Number(value) };
}

function enterButton(player) {
  return element("button", { type: "button", "data-action": "enter-player", "data-player-id": player.id, text: _("Enter"),
    onclick: () => act(byId("entry-form"), () => post(`${base}/players`, { player_id: player.id, ...entryRating() }))
      .then((answer) => { if (answer) byId("search-results").replaceChildren(); }) });
}

function candidateItem(player) {
  const names = [player.name, player.name_geez].filter(Boolean).join(" · ");
  const more = [player.federation, player.club, player.birth_year].filter(Boolean).join(" · ");
  return element("li", { "data-player-id": player.id },
    element("span", {}, element("strong", { text: names }), more ? element("span", { class: "hint", text: ` ${more}` }) : null),
    enterButton(player));
}

async function search(event) {
  event.preventDefault();
  const q = byId("player-search").value.trim();
  const form = byId("entry-form");
  clearProblem(form);
  try {
    const { data } = await getJSON(`/api/players?q=${encodeURIComponent(q)}&limit=20`);
    const items = data.players.map(candidateItem);
    byId("search-results").replaceChildren(...(items.length ? items
      : [element("li", { class: "hint", text: _("No registered player has this name: register him below.") })]));
    byId("search-results").dataset.query = q;
  } catch (error) {
    showProblem(form, error);
  }
}

function registrationBody(form, force) {
  const f = form.elements;
  const body = { register: true, force };
  for (const name of ["name", "name_geez", "federation", "club", "sex"]) {
    if (f[name].value.trim()) body[name] = f[name].value.trim();
  }
  for (const name of ["rating", "birth_year"]) {
    const value = typedNumber(form, name);
    if (value !== undefined) body[name] = value;
  }
  return body;
}

// The registry's duplicate warning (409 with its candidates): enter one of them, or say
// this is another person and register him anyway.
function register(force) {
  const form = byId("register-form");
  byId("duplicates").hidden = true;
  const duplicates = (error) => {
    const candidates = error instanceof Conflict ? error.problem.candidates : null;
    if (!candidates) return showProblem(form, error);
    byId("duplicates-text").textContent = _("The registry already has a player of this name. Is it one of these?");
    byId("duplicates-list").replaceChildren(...candidates.map(candidateItem));
    byId("duplicates").hidden = false;
    return null;
  };
  return act(form, () => post(`${base}/players`, registrationBody(form, force)), duplicates)
    .then((answer) => { if (answer) form.reset(); });
}

// A player named on a board or a bye, in both scripts where the registry has his Ge'ez
// name (dom.js, bothNames): from the tournament's read of its entrants, since a proposed
// round names its players by their Latin names alone.
function geezOf(player) {
  return player.name_geez ?? state.t?.players.find((p) => p.number === player.number)?.name_geez;
}

function named(player) {
  return bothNames(player.name, geezOf(player));
}

function namedText(player) {
  return bothNamesText(player.name, geezOf(player));
}

function entrantRow(t, entrant, nextRound) {
  const absent = t.absences.filter((a) => a.player === entrant.number).map((a) => a.round);
  const status = entrant.withdrawn ? _("withdrawn")
    : absent.length ? _("absent in round %(round)s", { round: absent.join(", ") }) : "";
  const controls = entrant.withdrawn ? [] : [
    element("button", { type: "button", "data-action": "withdraw-player", "data-player": entrant.number, text: _("Withdraw"),
      onclick: () => act(byId("entrants-form"), () => post(`${base}/players/${entrant.number}/withdrawal`, {})) }),
    nextRound ? element("button", { type: "button", "data-action": "absent-player", "data-player": entrant.number, "data-round": nextRound,
      text: _("Absent in round %(round)s", { round: nextRound }),
      onclick: () => act(byId("entrants-form"), () => post(`${base}/absences`, { player: entrant.number, round: nextRound })) }) : null,
  ];
  return element("tr", { "data-player": entrant.number, "data-withdrawn": String(entrant.withdrawn) },
    element("td", { text: String(entrant.number) }), element("td", {}, bothNames(entrant.name, entrant.name_geez)),
    element("td", { class: "wide-only", text: entrant.federation || "" }), element("td", { text: entrant.rating ?? "" }),
    element("td", { text: status }), element("td", { class: "buttons" }, ...controls));
}

function renderEntrants(t) {
  const planned = t.rounds_planned || 0;
  const nextRound = !planned || t.rounds.length < planned ? t.rounds.length + 1 : null;
  const head = element("tr", {}, ...[_("No."), _("Player"), _("Fed."), _("Rating"), "", ""].map((text, i) =>
    element("th", { scope: "col", class: i === 2 ? "wide-only" : null, text })));
  const table = byId("entrants");
  if (!table.tBodies.length) table.replaceChildren(element("thead"), element("tbody"));
  replaceChanged(table.tHead, [head]);
  replaceChanged(table.tBodies[0], t.players.map((entrant) => entrantRow(t, entrant, nextRound)));
  const names = new Map(t.players.map((p) => [p.number, bothNamesText(p.name, p.name_geez)]));
  byId("forbidden-list").replaceChildren(...t.forbidden_pairs.map((pair) => element("li", {
    text: (pair.players || []).map((n) => names.get(n) || n).join(" · ") })));
}

function forbid(event) {
  event.preventDefault();
  const players = byId("forbidden-players").value.trim().split(/[\s,]+/).filter(Boolean).map(Number);
  act(event.currentTarget, () => post(`${base}/forbidden-pairs`, { players }))
    .then((answer) => { if (answer) byId("forbidden-players").value = ""; });
}

// -- The round and the pairing checker --------------------------------------------------

// The next round as the API would pair it (…/rounds/proposal): shown, changed by hand
// if the arbiter must (…/rounds/check says what a change breaks) and stored only when
// published (…/rounds, with If-Match: a change made meanwhile is refused, not paired over).
function propose(event) {
  event.preventDefault();
  act(event.currentTarget, async () => {
    const { data, etag } = await post(`${base}/rounds/proposal`, {});
    state.proposal = { ...data, etag, changed: false };
  });
}

// The two players' places exchanged, whatever they hold (a seat on a board, or a bye):
// moving names about, not pairing; the API checks the result.
function swapped(proposal, first, second) {
  const other = (n) => (n === first ? second : n === second ? first : n);
  return {
    boards: proposal.boards.map((b) => ({ south: other(b.south.number), north: other(b.north.number) })),
    byes: proposal.byes.map((b) => ({ player: other(b.number), points: b.points })),
  };
}

function swap(event) {
  event.preventDefault();
  const first = Number(byId("swap-first").value);
  const second = Number(byId("swap-second").value);
  act(event.currentTarget, async () => {
    const { data } = await post(`${base}/rounds/check`, swapped(state.proposal, first, second));
    state.proposal = { ...data, etag: state.proposal.etag, changed: true };
  });
}

function publish(event) {
  event.preventDefault();
  const proposal = state.proposal;
  const body = !proposal.changed ? {} : {
    boards: proposal.boards.map((b) => ({ south: b.south.number, north: b.north.number })),
    byes: proposal.byes.map((b) => ({ player: b.number, points: b.points })),
  };
  act(event.currentTarget, async () => {
    const answer = await post(`${base}/rounds`, body, proposal.etag);
    state.proposal = null;
    state.round = null; // the results follow the new round
    return answer;
  });
}

function renderProposal() {
  const proposal = state.proposal;
  byId("proposal").hidden = !proposal;
  byId("pair-button").hidden = Boolean(proposal);
  if (!proposal) return;
  byId("proposal").dataset.round = proposal.round;
  byId("proposal").dataset.changed = String(proposal.changed);
  byId("proposal-title").textContent = _("Round %(n)s as proposed", { n: proposal.round });
  byId("proposal-boards").replaceChildren(...proposal.boards.map((b) => element("li", { class: "board-item", "data-board": b.board },
    element("span", { class: "board-number", text: String(b.board) }),
    element("span", { class: "board-players" }, element("span", { "data-player": b.south.number }, named(b.south)),
      element("span", { class: "hint", text: " – " }), element("span", { "data-player": b.north.number }, named(b.north))))));
  byId("proposal-empty-boards").replaceChildren(...emptyBoardItems(proposal));
  byId("proposal-byes").replaceChildren(...proposal.byes.map((bye) => element("li", { "data-player": bye.number,
    text: _("%(name)s: bye (%(points)s)", { name: namedText(bye), points: bye.points }) })));
  const everyone = [...proposal.boards.flatMap((b) => [b.south, b.north]), ...proposal.byes];
  for (const select of [byId("swap-first"), byId("swap-second")]) {
    const chosen = select.value;
    select.replaceChildren(...everyone.map((p) => element("option", { value: p.number, text: `${p.number}. ${namedText(p)}` })));
    if (chosen) select.value = chosen;
  }
  byId("findings").replaceChildren(...proposal.findings.map((f) => element("li", {
    "data-code": f.code, "data-criterion": f.criterion || "", text: f.text })));
  byId("proposal-breaks").textContent = proposal.breaks.length
    ? _("This round breaks: %(criteria)s", { criteria: proposal.breaks.join(", ") })
    : proposal.findings.length ? _("This round breaks no criterion, but differs from the pairing the rules give.") : _("The checker finds nothing to say.");
}

const CHECK_WORDS = {
  same: _("paired as the rules pair it"),
  differs: _("differs from the pairing the rules give"),
  no_pairing: _("the rules find no pairing for it"),
  not_swiss: _("paired by hand: the rules do not pair it"),
};

async function renderChecker() {
  const { data } = await getJSON(`${base}/check`);
  const items = data.rounds.map((r) => element("li", { "data-round": r.round, "data-status": r.status },
    _("Round %(n)s: %(finding)s", { n: r.round, finding: CHECK_WORDS[r.status] || r.status })
    + (r.board_order_differs ? _(" (the boards are in another order)") : "")));
  byId("checker").replaceChildren(...(items.length ? items : [element("li", { class: "hint", text: _("No round has been paired yet.") })]));
}

function renderRoundStatus(t) {
  const planned = t.rounds_planned;
  const last = t.rounds[t.rounds.length - 1];
  const text = !last ? _("No round has been paired yet.")
    : last.complete ? _("Round %(n)s is complete.", { n: last.round })
      : _("Round %(n)s is being played.", { n: last.round });
  byId("round-status").textContent = planned ? `${text} ${_("%(paired)s of %(planned)s rounds paired", { paired: t.rounds.length, planned })}` : text;
}

// -- Results ---------------------------------------------------------------------------

// A board's result as the console enters it, each one an event: a game played on paper
// or a forfeit on a board without a game (…/boards/{b}/result with its kind), else the
// board's game (the tablet's) started if it was not and its result command (…/commands),
// with the way the arbiter chose.
async function enterResult(round, board, result, corrects = false) {
  const way = corrects ? board.entered_as : byId("result-way").value;
  const boardUrl = `${base}/rounds/${round}/boards/${board.board}`;
  if (way === "played" || way === "forfeit") {
    const entered = way === "forfeit" && result === "draw" ? "double_forfeit" : result;
    return post(`${boardUrl}/result`, { result: entered, kind: way, ...(corrects ? { corrects } : {}) });
  }
  const version = state.started.has(board.game_id)
    ? (await getJSON(`/api/games/${encodeURIComponent(board.game_id)}`)).data.version
    : (await post(`${boardUrl}/game`, {})).data.version;
  const winner = { south_wins: "south", north_wins: "north", draw: null }[result];
  return post(`/api/games/${encodeURIComponent(board.game_id)}/commands`, { type: "result", kind: way, winner, expected_version: version });
}

function boardState(board) {
  if (board.result) {
    const how = board.decided_by === "forfeit" ? _(" (forfeit)") : board.entered_as === "played" ? _(" (on paper)") : "";
    return RESULT_MARKS[board.result] + how;
  }
  return state.started.has(board.game_id) ? _("being played") : _("not started");
}

// A result entered in the tournament (on paper, a forfeit) is corrected by a new one that
// says so (`corrects`): the first stays in the log. A game's result is the game's own.
function resultButtons(round, board) {
  const corrects = Boolean(board.result) && ["played", "forfeit"].includes(board.entered_as);
  if (board.result && !corrects) return [];
  const buttons = ["south_wins", "draw", "north_wins"].map((result) => element("button", {
    type: "button", "data-action": "enter-result", "data-result": result, "data-board": board.board,
    "data-corrects": corrects ? "true" : null, disabled: result === board.result,
    text: RESULT_MARKS[result], onclick: () => act(byId("results-form"), () => enterResult(round.round, board, result, corrects)) }));
  return corrects ? [element("span", { class: "hint", text: _("Correct it:") }), ...buttons] : buttons;
}

function boardItem(round, board) {
  const game = state.started.has(board.game_id)
    ? element("a", { href: `/games/${encodeURIComponent(board.game_id)}`, text: _("open the game") }) : null;
  return element("li", { class: "board-item", "data-round": round.round, "data-board": board.board, "data-state": board.result ? "finished" : state.started.has(board.game_id) ? "playing" : "waiting" },
    element("span", { class: "board-number", text: String(board.board) }),
    element("span", { class: "board-players" }, element("span", {}, named(board.south)), element("span", { class: "hint", text: " – " }), element("span", {}, named(board.north))),
    element("span", { class: "board-state", text: boardState(board) }),
    element("span", { class: "buttons" }, ...resultButtons(round, board), game));
}

function renderResults(t) {
  const choice = byId("results-round");
  const wanted = state.round || t.rounds.length;
  choice.replaceChildren(...t.rounds.map((r) => element("option", { value: r.round, text: _("Round %(n)s", { n: r.round }) })));
  const round = t.rounds.find((r) => r.round === wanted) || t.rounds[t.rounds.length - 1];
  if (!round) {
    byId("boards").replaceChildren(element("li", { class: "hint", text: _("No round has been paired yet.") }));
    byId("round-byes").replaceChildren();
    byId("round-empty-boards").replaceChildren();
    return;
  }
  choice.value = String(round.round);
  byId("boards").dataset.round = round.round;
  replaceChanged(byId("boards"), round.boards.map((board) => boardItem(round, board)));
  byId("round-empty-boards").replaceChildren(...emptyBoardItems(round));
  byId("round-byes").replaceChildren(...round.byes.map((bye) => element("li", { "data-player": bye.number,
    text: _("%(name)s: bye (%(points)s)", { name: namedText(bye), points: bye.points }) })));
}

// -- Lists -----------------------------------------------------------------------------

function renderLists(t, standings) {
  const printed = (list, extra = "") => `/tournaments/${encodeURIComponent(id)}/print?list=${list}${extra}`;
  const latest = t.rounds.length;
  byId("print-pairings").href = printed("pairings", latest ? `&round=${latest}` : "");
  byId("print-scoresheets").href = `/tournaments/${encodeURIComponent(id)}/rounds/${latest || 1}/scoresheets`;
  byId("print-standings").href = printed("standings");
  byId("print-crosstable").href = printed("crosstable");
  byId("print-prizes").href = printed("prizes");
  byId("print-board-prizes").href = printed("board-prizes");
  byId("print-board-prizes").closest("li").hidden = !isTeamEvent(t);
  byId("trf-download").href = `${base}/trf`;
  byId("signin-cards").href = `/tournaments/${encodeURIComponent(id)}/rounds/${latest || 1}/signin-cards`;
  byId("signin-cards").closest("p").hidden = !latest;
  const head = element("tr", {}, ...[_("Rank"), _("Player"), _("Points")].map((text) => element("th", { scope: "col", text })));
  const rows = standings.standings.map((s) => element("tr", { "data-player": s.number },
    element("td", { text: String(s.rank) }), element("td", {}, bothNames(s.name, s.name_geez)), element("td", { class: "points", text: String(s.points) })));
  byId("console-standings").replaceChildren(element("thead", {}, head), element("tbody", {}, ...rows));
}

// -- A knock-out ------------------------------------------------------------------------

function drawLot(match, winner) {
  const form = byId("lots-form");
  const note = form.elements.note.value.trim();
  return act(form, () => post(`${base}/knockout/lots`, { stage: match.stage, match: match.match, winner, ...(note ? { note } : {}) }))
    .then((answer) => { if (answer) form.reset(); });
}

function handOver(event) {
  event.preventDefault();
  act(event.currentTarget, () => seedFromStage(event.currentTarget, base));
}

// A knock-out is paired by its bracket alone (a hand pairing is refused) and the Dutch
// system's checker has nothing to say about it; a team match's boards follow the teams'
// board orders, which a swap of two players would break.
function renderFormat(t) {
  const knockout = t.format === "knockout";
  byId("swap-form").hidden = knockout || isTeamEvent(t);
  byId("checker-part").hidden = knockout;
}

function enterFoundTeam(teamId) {
  const form = byId("team-form");
  act(form, () => enterTeam(teamId, base)).then((answer) => {
    if (!answer) return;
    form.reset();
    byId("team-results").replaceChildren();
  });
}

async function teamSearch(event) {
  event.preventDefault();
  const form = event.currentTarget;
  clearProblem(form);
  try {
    byId("team-results").replaceChildren(...await findTeams(form.elements.q.value.trim(), enterFoundTeam));
  } catch (error) {
    showProblem(form, error);
  }
}

// -- Finishing ----------------------------------------------------------------------------

function finish(event) {
  event.preventDefault();
  const note = event.currentTarget.elements.note.value.trim();
  act(event.currentTarget, () => post(`${base}/finish`, note ? { note } : {}));
}

function renderFinish(t) {
  const finished = t.status === "finished";
  byId("finish-details").hidden = finished;
  byId("finished-note").hidden = !finished;
  byId("pair-form").hidden = finished;
}

// -- The whole page --------------------------------------------------------------------

// Reads run one after another, so the last drawn is the newest: a live update and a
// control's own reread never draw an older answer over a newer one.
// The players' badges and the disputes still open, for the tournament's arbiter or the
// admin (the disputes carry the players' own words; the API answers them alone).
async function runsIt() {
  const { principal } = await pageAccess;
  return Boolean(principal && (principal.kind === "admin" || (principal.kind === "arbiter" && principal.tournament_id === id)));
}

async function renderDisputes() {
  const arbiter = await runsIt();
  byId("console-disputes").hidden = !arbiter;
  if (!arbiter) return;
  byId("console-badges").href = `/tournaments/${encodeURIComponent(id)}/badges`;
  const { data } = await getJSON(`${base}/disputes`);
  byId("console-open-disputes").replaceChildren(...openDisputeItems(data.disputes));
}

// A knock-out's bracket, read once the tournament says it is one (its format never changes).
async function readBracket() {
  if (state.t && state.t.format !== "knockout") return null;
  return (await getJSON(`${base}/bracket`)).data;
}

let reading = Promise.resolve();
function load() {
  reading = reading.catch(() => {}).then(readAndDraw);
  return reading;
}

async function readAndDraw() {
  const [{ data: t }, { data: standings }, { data: games }, bracket] = await Promise.all([
    getJSON(base), getJSON(`${base}/standings`), getJSON(`/api/games?tournament=${encodeURIComponent(id)}&limit=1000`),
    readBracket()]);
  const teamStandings = await readTeamStandings(t, base);
  const lineups = await readLineups(t, base, await runsIt());
  state.t = t;
  state.started = new Set(games.games.map((g) => g.id));
  byId("console-title").textContent = t.name;
  document.title = `${t.name} · ` + _("Tournament console");
  byId("console-meta").textContent = [FORMAT_WORDS[t.format] || t.format, STATUS_WORDS[t.status] || t.status,
    _("%(count)s players", { count: t.players.length })].join(" · ");
  byId("public-link").href = `/tournaments/${encodeURIComponent(id)}`;
  renderEntrants(t);
  renderRoundStatus(t);
  renderProposal();
  renderResults(t);
  renderLists(t, standings);
  renderFinish(t);
  renderFormat(t);
  await renderKnockout(id, t, bracket, drawLot);
  renderTeams(t, teamStandings);
  renderLineups(id, t, lineups, (form) => act(form, () => handIn(base, form)));
  await renderDisputes();
  // The checker pairs every round again: asked when a round is added, not on every result.
  if (state.checked !== t.rounds.length) {
    await renderChecker();
    state.checked = t.rounds.length;
  }
  page.dataset.rounds = String(t.rounds.length);
  page.dataset.version = String(t.version ?? "");
  page.dataset.updates = String(Number(page.dataset.updates || 0) + 1);
}

function wire() {
  byId("search-form").addEventListener("submit", search);
  byId("register-form").addEventListener("submit", (event) => { event.preventDefault(); register(false); });
  byId("register-anyway").addEventListener("click", () => register(true));
  byId("forbidden-form").addEventListener("submit", forbid);
  byId("pair-form").addEventListener("submit", propose);
  byId("swap-form").addEventListener("submit", swap);
  byId("publish-form").addEventListener("submit", publish);
  byId("finish-form").addEventListener("submit", finish);
  byId("handover-form").addEventListener("submit", handOver);
  byId("team-form").addEventListener("submit", teamSearch);
  byId("results-round").addEventListener("change", (event) => {
    state.round = Number(event.currentTarget.value);
    renderResults(state.t);
  });
}

async function showAccess() {
  const { principal } = await pageAccess;
  const writes = principal && (principal.kind === "admin" || (principal.kind === "arbiter" && principal.tournament_id === id));
  byId("console-access").hidden = Boolean(writes);
  byId("console-access").textContent = writes ? "" : _("Viewing only: sign in as this tournament's arbiter or as the admin to run it.");
}

let refreshTimer = null;
function refresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => load().catch(() => {}), 30);
}

wire();
Promise.all([load(), showAccess()]).then(() => {
  page.dataset.ready = "true";
  return listen(`${base}/live`, { board: refresh, tournament: refresh });
}).catch((error) => {
  byId("console-title").textContent = error.status === 404 ? _("There is no tournament %(id)s", { id }) : _("The tournament could not be loaded");
  byId("console-meta").replaceChildren(element("span", { class: "error", text: describeProblem(error) }));
  page.dataset.ready = "error";
});
