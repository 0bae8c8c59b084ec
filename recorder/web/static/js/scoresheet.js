// Scoresheets to print (A4, black on white; app.css's print rules):
// - a game's (/games/{id}/scoresheet): the players, event, round, board, every move as the
//   notation writes it, the result, lines for the players' and the arbiter's signatures,
//   and the signed checkpoint as a QR code and as text (GET /api/games/{id}/checkpoint.svg),
//   which anyone can scan and check with `recorder verify --checkpoint`;
// - a round's (/tournaments/{id}/rounds/{n}/scoresheets): an empty sheet per board, printed
//   before play, with the pairing filled in and numbered lines for the moves.
import { describeProblem, getJSON, getOptional } from "./api.js";
import { element, PLAYER } from "./site.js";

const page = document.getElementById("scoresheet-page");
const sheets = document.getElementById("sheets");
const EMPTY_TURNS = 40; // numbered lines on an empty sheet: two columns of twenty
const RESULT_WORDS = { south_wins: "South won", north_wins: "North won", draw: "Draw" };

const field = (label, value, className = "") =>
  element("div", { class: `sheet-field ${className}` }, element("span", { class: "sheet-label", text: label }),
    element("span", { class: "sheet-value", text: value || "" }));

function heading(title, meta) {
  return element("header", { class: "sheet-head" },
    element("h1", { text: title }),
    element("div", { class: "sheet-fields" },
      field("Event", meta.event), field("Site", meta.site), field("Date", meta.date),
      field("Round", meta.round === undefined || meta.round === null ? "" : String(meta.round)),
      field("Board", meta.board === undefined || meta.board === null ? "" : String(meta.board))));
}

function players(south, north) {
  return element("div", { class: "sheet-players" },
    field(`${PLAYER.south} (row 1)`, south, "player"), field(PLAYER.north, north, "player"));
}

function signatures() {
  return element("section", { class: "sheet-signatures", "aria-label": "Signatures" },
    ...[`${PLAYER.south}`, `${PLAYER.north}`, "Arbiter"].map((who) =>
      element("div", { class: "signature" }, element("span", { class: "signature-line" }),
        element("span", { class: "sheet-label", text: `Signature: ${who}` }))));
}

// -- A recorded game -------------------------------------------------------------------

function moveList(moves) {
  const list = element("ol", { class: "sheet-moves" });
  for (const move of moves) list.append(element("li", { "data-seq": move.seq, text: move.notation }));
  if (!moves.length) list.append(element("li", { class: "hint", text: "No move recorded." }));
  return list;
}

function resultLine(game) {
  const state = game.state;
  if (!state.game_over) return "Not finished: the game is still in progress.";
  const how = state.result_reason ? ` (${state.result_reason})` : "";
  return `${RESULT_WORDS[state.result] || state.result}${how}`;
}

function checkpointBlock(gameId, checkpoint) {
  if (!checkpoint) {
    return element("section", { class: "sheet-checkpoint" },
      element("p", { class: "hint", text: "No checkpoint yet: a game is signed once it is finished. Print the sheet again then." }));
  }
  const qr = element("img", { class: "sheet-qr", src: `/api/games/${encodeURIComponent(gameId)}/checkpoint.svg`,
    alt: `QR code of the signed checkpoint: ${checkpoint.text}` });
  return element("section", { class: "sheet-checkpoint", "data-checkpoint": checkpoint.text },
    qr,
    element("div", { class: "checkpoint-words" },
      element("h2", { text: "Signed checkpoint" }),
      element("p", { text: `Event ${checkpoint.version} of the record, signed by the service's key ${checkpoint.key_id}. `
        + "Scan the code and check it against the record with:" }),
      element("p", { class: "checkpoint-command", text: 'recorder verify --checkpoint "<the scanned text>"' }),
      element("p", { class: "checkpoint-text", text: checkpoint.text })));
}

async function showGame(gameId) {
  const base = `/api/games/${encodeURIComponent(gameId)}`;
  const [{ data: game }, { data: moves }, { data: variants }, checkpoint] = await Promise.all([
    getJSON(base), getJSON(`${base}/moves`), getJSON("/api/variants"), getOptional(`${base}/checkpoint`).catch(() => null),
  ]);
  const title = variants.variants.find((v) => v.name === game.variant)?.title || game.variant;
  const sheet = element("article", { class: "sheet", "data-game-id": gameId },
    heading(`${title} scoresheet`, game.metadata || {}),
    players(game.south, game.north),
    element("p", { class: "sheet-game-id", text: `Game ${gameId}` }),
    element("section", { class: "sheet-record" }, element("h2", { text: "Moves" }), moveList(moves.moves)),
    element("section", { class: "sheet-result" }, element("h2", { text: "Result" }),
      element("p", { id: "sheet-result", text: resultLine(game) })),
    signatures(),
    checkpointBlock(gameId, checkpoint));
  sheets.replaceChildren(sheet);
  document.title = `Scoresheet: ${game.south} – ${game.north}`;
  await imagesLoaded();
}

// -- An empty sheet per board of a round --------------------------------------------------

// Numbered turns in two tables side by side; a longer game goes on a second sheet.
function emptyMoves() {
  const half = EMPTY_TURNS / 2;
  const table = (first) => element("table", { class: "sheet-blank-moves" },
    element("thead", {}, element("tr", {}, element("th", { text: "Turn" }),
      element("th", { text: PLAYER.south }), element("th", { text: PLAYER.north }))),
    element("tbody", {}, ...Array.from({ length: half }, (_, i) => element("tr", {},
      element("th", { scope: "row", text: String(first + i) }), element("td"), element("td")))));
  return element("div", { class: "sheet-blank" }, table(1), table(half + 1));
}

const box = (words) => `☐\u00a0${words.replaceAll(" ", "\u00a0")}`; // a box never parts from its words

function emptyResult() {
  const outcomes = ["South won", "North won", "Draw"].map(box).join("   ");
  const how = ["on the board", "resignation", "agreement", "adjudication", "forfeit"].map(box).join("   ");
  return element("section", { class: "sheet-result" }, element("h2", { text: "Result" }),
    element("p", { class: "tick-boxes", text: `${outcomes}      by: ${how}` }));
}

async function showRound(tournamentId, roundNumber) {
  const base = `/api/tournaments/${encodeURIComponent(tournamentId)}`;
  const [{ data: tournament }, { data: round }, { data: variants }] = await Promise.all([
    getJSON(base), getJSON(`${base}/rounds/${roundNumber}`), getJSON("/api/variants"),
  ]);
  const title = variants.variants.find((v) => v.name === tournament.variant)?.title || tournament.variant;
  const meta = { event: tournament.name, site: tournament.site, date: "", round: roundNumber };
  const made = round.boards.map((board) => element("article", { class: "sheet empty", "data-board": board.board },
    heading(`${title} scoresheet`, { ...meta, board: board.board }),
    players(board.south.name, board.north.name),
    element("section", { class: "sheet-record" }, element("h2", { text: "Moves" }), emptyMoves()),
    emptyResult(),
    signatures()));
  sheets.replaceChildren(...(made.length ? made : [element("p", { class: "hint", text: "This round has no boards." })]));
  document.title = `Scoresheets: ${tournament.name}, round ${roundNumber}`;
}

function imagesLoaded() {
  return Promise.all([...sheets.querySelectorAll("img")].map((img) => (img.complete ? null
    : new Promise((resolve) => { img.addEventListener("load", resolve); img.addEventListener("error", resolve); }))));
}

document.getElementById("print").addEventListener("click", () => window.print());
const shown = page.dataset.gameId ? showGame(page.dataset.gameId) : showRound(page.dataset.tournamentId, Number(page.dataset.round));
shown
  .then(() => page.setAttribute("data-ready", "true"))
  .catch((error) => sheets.replaceChildren(element("p", { class: "error", text: `Could not load: ${describeProblem(error)}` })));
