// Scoresheets to print (A4, black on white; app.css's print rules):
// - a game's (/games/{id}/scoresheet): the players, event, round, board, every move as the
//   notation writes it, the result, lines for the players' and the arbiter's signatures,
//   and the signed checkpoint as a QR code and as text (GET /api/games/{id}/checkpoint.svg),
//   which anyone can scan and check with `recorder verify --checkpoint`;
// - a round's (/tournaments/{id}/rounds/{n}/scoresheets): an empty sheet per board, printed
//   before play, with the pairing filled in and numbered lines for the moves.
import { describeProblem, getJSON, getOptional } from "./api.js";
import { clockText, timeControlText } from "./clock.js";
import { _, date } from "./i18n.js";
import { bothNames, bothNamesText, element, PLAYER } from "./site.js";

const page = document.getElementById("scoresheet-page");
const sheets = document.getElementById("sheets");
// Numbered lines on an empty sheet: three columns of twenty-five, what one A4 page holds
// (recorded games run 50-70 turns; forty lines sent most of them onto a second sheet).
const EMPTY_COLUMNS = 3;
const EMPTY_TURNS = 75;
const RESULT_WORDS = { south_wins: _("South won"), north_wins: _("North won"), draw: _("Draw") };

const field = (label, value, className = "") =>
  element("div", { class: `sheet-field ${className}` }, element("span", { class: "sheet-label", text: label }),
    element("span", { class: "sheet-value" }, value || ""));

function heading(title, meta) {
  return element("header", { class: "sheet-head" },
    element("h1", { text: title }),
    element("div", { class: "sheet-fields" },
      field(_("Event"), meta.event), field(_("Site"), meta.site), field(_("Date"), date(meta.date)),
      field(_("Round"), meta.round === undefined || meta.round === null ? "" : String(meta.round)),
      field(_("Board"), meta.board === undefined || meta.board === null ? "" : String(meta.board)),
      meta.time_control ? field(_("Time control"), timeControlText(meta.time_control), "sheet-time-control") : null));
}

// Each player's name in both scripts where the registry has the Ge'ez: the Ge'ez under the Latin.
function players(south, north) {
  const named = (player) => bothNames(player.name, player.name_geez, { lines: true });
  return element("div", { class: "sheet-players" },
    field(_("%(side)s (row 1)", { side: PLAYER.south }), named(south), "player"), field(PLAYER.north, named(north), "player"));
}

function signatures() {
  return element("section", { class: "sheet-signatures", "aria-label": _("Signatures") },
    ...[`${PLAYER.south}`, `${PLAYER.north}`, _("Arbiter")].map((who) =>
      element("div", { class: "signature" }, element("span", { class: "signature-line" }),
        element("span", { class: "sheet-label", text: _("Signature: %(who)s", { who }) }))));
}

// -- A recorded game -------------------------------------------------------------------

// A line breaks only between turns or between a turn's holes: never inside a token (the
// pass "--" once printed as "-" above "-"), nor between a turn's number, side and first hole.
function notationItem(move) {
  const item = element("li", { "data-seq": move.seq, translate: "no" });
  const tokens = move.notation.replace(/(\d+\.) ([SN]) (\S+)/g, "$1\u00a0$2\u00a0$3").split(" ");
  tokens.forEach((token, i) => item.append(...(i ? [" "] : []), element("span", { class: "token", text: token })));
  if (move.clock) item.append(element("span", { class: "sheet-clock", text: clockLine(move) }));
  return item;
}

// Under a sowing: its player's clock after it, and what it took (when the readings say);
// under a decision: both clocks, South's first as on the players' line.
function clockLine(move) {
  if (!move.player) return `${clockText(move.clock.south)} – ${clockText(move.clock.north)}`;
  const took = move.think_ms === undefined ? "" : ` (${clockText(move.think_ms)})`;
  return clockText(move.clock[move.player]) + took;
}

function moveList(moves) {
  const list = element("ol", { class: "sheet-moves" });
  for (const move of moves) list.append(notationItem(move));
  if (!moves.length) list.append(element("li", { class: "hint", text: _("No move recorded.") }));
  return list;
}

function clockLegend(moves) {
  if (!moves.some((move) => move.clock)) return null;
  return element("p", { class: "sheet-clock-legend",
    text: _("Under a sowing: its player's clock after it, and (in brackets) the time it took. Under a decision: South's clock – North's.") });
}

function resultLine(game) {
  const state = game.state;
  if (!state.game_over) return _("Not finished: the game is still in progress.");
  const how = state.result_reason ? " (" + _(state.result_reason) + ")" : "";
  const score = state.score ? `, ${state.score.south}–${state.score.north}` : ""; // south's first, as the players' line
  return `${RESULT_WORDS[state.result] || state.result}${how}${score}`;
}

function checkpointBlock(gameId, checkpoint) {
  if (!checkpoint) {
    return element("section", { class: "sheet-checkpoint" },
      element("p", { class: "hint", text: _("No checkpoint yet: a game is signed once it is finished. Print the sheet again then.") }));
  }
  const qr = element("img", { class: "sheet-qr", src: `/api/games/${encodeURIComponent(gameId)}/checkpoint.svg`,
    alt: _("QR code of the signed checkpoint: %(text)s", { text: checkpoint.text }) });
  return element("section", { class: "sheet-checkpoint", "data-checkpoint": checkpoint.text },
    qr,
    element("div", { class: "checkpoint-words" },
      element("h2", { text: _("Signed checkpoint") }),
      element("p", { text: _("Event %(version)s of the record, signed by the service's key %(key)s. Scan the code and check it against the record with:", { version: checkpoint.version, key: checkpoint.key_id }) }),
      element("p", { class: "checkpoint-command" }, element("code", { translate: "no", text: "recorder verify --checkpoint" }), " \"" + _("<the scanned text>") + "\""),
      element("p", { class: "checkpoint-text", translate: "no", text: checkpoint.text })));
}

// The date the game was played: the one its record names, else the day its record began.
const playedOn = (game) => game.metadata?.date || (game.created_at || "").slice(0, 10);

async function showGame(gameId) {
  const base = `/api/games/${encodeURIComponent(gameId)}`;
  const [{ data: game }, { data: moves }, { data: variants }, checkpoint] = await Promise.all([
    getJSON(base), getJSON(`${base}/moves`), getJSON("/api/variants"), getOptional(`${base}/checkpoint`).catch(() => null),
  ]);
  const title = variants.variants.find((v) => v.name === game.variant)?.title || game.variant;
  const sheet = element("article", { class: "sheet", "data-game-id": gameId },
    heading(_("%(game)s scoresheet", { game: title }), { ...game.metadata, date: playedOn(game) }),
    players({ name: game.south, name_geez: game.south_geez }, { name: game.north, name_geez: game.north_geez }),
    element("p", { class: "sheet-game-id", text: _("Game %(id)s", { id: gameId }) }),
    element("section", { class: "sheet-record" }, element("h2", { text: _("Moves") }), clockLegend(moves.moves),
      moveList(moves.moves)),
    element("section", { class: "sheet-result" }, element("h2", { text: _("Result") }),
      element("p", { id: "sheet-result", text: resultLine(game) })),
    signatures(),
    checkpointBlock(gameId, checkpoint));
  sheets.replaceChildren(sheet);
  document.title = _("Scoresheet: %(south)s – %(north)s",
    { south: bothNamesText(game.south, game.south_geez), north: bothNamesText(game.north, game.north_geez) });
  await imagesLoaded();
}

// -- An empty sheet per board of a round --------------------------------------------------

// Numbered turns in tables side by side; a longer game goes on a second sheet.
function emptyMoves() {
  const rows = EMPTY_TURNS / EMPTY_COLUMNS;
  const table = (first) => element("table", { class: "sheet-blank-moves" },
    element("thead", {}, element("tr", {}, element("th", { text: _("Turn") }),
      element("th", { text: PLAYER.south }), element("th", { text: PLAYER.north }))),
    element("tbody", {}, ...Array.from({ length: rows }, (unused, i) => element("tr", {},
      element("th", { scope: "row", text: String(first + i) }), element("td"), element("td")))));
  return element("div", { class: "sheet-blank" }, ...Array.from({ length: EMPTY_COLUMNS }, (unused, i) => table(1 + i * rows)));
}

const box = (words) => `☐\u00a0${words.replaceAll(" ", "\u00a0")}`; // a box never parts from its words

function emptyResult() {
  const outcomes = [_("South won"), _("North won"), _("Draw")].map(box).join("   ");
  const how = [_("on the board"), _("resignation"), _("agreement"), _("adjudication"), _("forfeit")].map(box).join("   ");
  return element("section", { class: "sheet-result" }, element("h2", { text: _("Result") }),
    element("p", { class: "tick-boxes", text: `${outcomes}      ` + _("by:") + ` ${how}` }));
}

async function showRound(tournamentId, roundNumber) {
  const base = `/api/tournaments/${encodeURIComponent(tournamentId)}`;
  const [{ data: tournament }, { data: round }, { data: variants }] = await Promise.all([
    getJSON(base), getJSON(`${base}/rounds/${roundNumber}`), getJSON("/api/variants"),
  ]);
  const title = variants.variants.find((v) => v.name === tournament.variant)?.title || tournament.variant;
  // A one-day event's date is known before play; on a longer one the players write the day.
  const oneDay = tournament.start_date && tournament.start_date === tournament.end_date;
  const meta = { event: tournament.name, site: tournament.site, date: oneDay ? tournament.start_date : "", round: roundNumber,
    time_control: tournament.time_control };
  const made = round.boards.map((board) => element("article", { class: "sheet empty", "data-board": board.board },
    heading(_("%(game)s scoresheet", { game: title }), { ...meta, board: board.board }),
    players(board.south, board.north),
    element("section", { class: "sheet-record" }, element("h2", { text: _("Moves") }), emptyMoves()),
    emptyResult(),
    signatures()));
  sheets.replaceChildren(...(made.length ? made : [element("p", { class: "hint", text: _("This round has no boards.") })]));
  document.title = _("Scoresheets: %(tournament)s, round %(round)s", { tournament: tournament.name, round: roundNumber });
}

function imagesLoaded() {
  return Promise.all([...sheets.querySelectorAll("img")].map((img) => (img.complete ? null
    : new Promise((resolve) => { img.addEventListener("load", resolve); img.addEventListener("error", resolve); }))));
}

document.getElementById("print").addEventListener("click", () => window.print());
const shown = page.dataset.gameId ? showGame(page.dataset.gameId) : showRound(page.dataset.tournamentId, Number(page.dataset.round));
shown
  .then(() => page.setAttribute("data-ready", "true"))
  .catch((error) => sheets.replaceChildren(element("p", { class: "error", text: _("Could not load: %(problem)s", { problem: describeProblem(error) }) })));
