// The projector view for the hall: every board of one round (?round=N, else the latest
// paired) on one screen, in large type, redrawn within a second of each recorded move
// from the tournament's live stream (GET /api/tournaments/{id}/live). Read-only.
// The boards are laid out to fill the screen without scrolling (layout() below; the size
// rules are in docs/web.md, "The projector"); more than ?per_page=N boards (12 at most)
// make pages that turn by themselves every ?turn=S seconds.
import { describeProblem, getJSON, Problem } from "./api.js";
import { renderBoard } from "./board.js";
import { showClocks, showTimeControl } from "./clock.js";
import { _ } from "./i18n.js";
import { statusText } from "./record.js";
import { bothNames, element, listen } from "./site.js";

const page = document.getElementById("projector-page");
const id = page.dataset.tournamentId;
const base = `/api/tournaments/${encodeURIComponent(id)}`;
const byId = (name) => document.getElementById(name);
const query = new URLSearchParams(location.search);
const chosenRound = Number(query.get("round")) || null;
// How long the page waits for its live stream before saying it is ready anyway (a hall
// without the stream still gets the boards as they were when loaded).
const LIVE_WAIT_MS = 5000;
const MAX_PER_PAGE = 12;
const perPage = Math.min(MAX_PER_PAGE, Math.max(1, Math.floor(Number(query.get("per_page"))) || MAX_PER_PAGE));
const turnSeconds = Math.max(3, Number(query.get("turn")) || 15);
const GAP_PX = 12;
// A card is 100 units wide; every size inside it is a multiple of the unit (app.css).
const CARD_UNITS = 100;
const MEASURE_UNIT_PX = 10;

// A board decided without a game (GET .../rounds: decided_by "forfeit") and one whose
// game is over but has no state to show, in words.
const FORFEITS = {
  south_wins: _("South wins by forfeit"),
  north_wins: _("North wins by forfeit"),
  draw: _("Draw by forfeit"),
  double_forfeit: _("Double forfeit: neither player scores"),
};
const RESULTS = { south_wins: _("South wins"), north_wins: _("North wins"), draw: _("Draw"), double_forfeit: FORFEITS.double_forfeit };

const shown = { round: null, variants: new Map(), cards: new Map(), order: [], page: 0, timer: null };

export function resultInWords(pairing) {
  if (!pairing.result) return "";
  return pairing.decided_by === "forfeit" ? FORFEITS[pairing.result] : RESULTS[pairing.result];
}

function boardCard(pairing) {
  const card = element("section", { class: "projector-card", "data-board": pairing.board, "data-game": pairing.game_id || "" },
    element("h2", {}, element("span", { class: "board-number", text: _("Board %(n)s", { n: pairing.board }) }), " ",
      element("span", { class: "pairing" }, bothNames(pairing.south.name, pairing.south.name_geez), " – ",
        bothNames(pairing.north.name, pairing.north.name_geez))),
    element("p", { class: "projector-status" }),
    element("div", { class: "projector-clocks clocks", hidden: true }),
    element("div", { class: "projector-board" }));
  shown.cards.set(pairing.game_id, { card, pairing });
  return card;
}

function showWithoutGame(card, pairing) {
  const words = resultInWords(pairing);
  card.querySelector(".projector-status").textContent = words || _("Not started");
  card.dataset.result = pairing.result || "";
  card.querySelector(".projector-board").replaceChildren(
    element("p", { class: `projector-result${words ? "" : " waiting"}`, text: words || _("Not started") }));
}

async function drawGame(gameId) {
  const entry = shown.cards.get(gameId);
  if (!entry) return;
  const { card, pairing } = entry;
  if (pairing.decided_by === "forfeit") {
    showWithoutGame(card, pairing);
    return;
  }
  let game;
  try {
    game = (await getJSON(`/api/games/${encodeURIComponent(gameId)}`)).data;
  } catch (error) {
    if (error instanceof Problem && error.status === 404) {
      showWithoutGame(card, pairing);
      return;
    }
    throw error;
  }
  const names = { south: game.south, north: game.north };
  renderBoard(card.querySelector(".projector-board"), shown.variants.get(game.variant), game.state,
    { sowable: new Set(), names, at: game.version, version: game.version });
  card.querySelector(".projector-status").textContent = statusText(game.state, names);
  showClocks(card.querySelector(".projector-clocks"), game.clock, names);
  card.dataset.result = game.state.game_over ? game.state.result || "" : "";
  card.dataset.version = String(game.version);
}

// The grid (columns × rows) that makes the cards largest on this screen: every column
// count from 1 to n is tried; a card's height for its width is measured once at a known
// unit, since everything in it scales with the unit.
export function bestGrid(count, width, height, cardRatio, gap = GAP_PX) {
  let best = { columns: 1, rows: count, cardWidth: 0 };
  for (let columns = 1; columns <= count; columns += 1) {
    const rows = Math.ceil(count / columns);
    const cellWidth = (width - gap * (columns - 1)) / columns;
    const cellHeight = (height - gap * (rows - 1)) / rows;
    const cardWidth = Math.min(cellWidth, cellHeight * cardRatio);
    if (cardWidth > best.cardWidth) best = { columns, rows, cardWidth };
  }
  return best;
}

function cardsOnPage() {
  return shown.order.slice(shown.page * perPage, (shown.page + 1) * perPage);
}

function layout() {
  const boards = byId("boards");
  const cards = cardsOnPage();
  if (!cards.length) return;
  boards.style.setProperty("--u", `${MEASURE_UNIT_PX}px`);
  boards.style.removeProperty("--card-width");
  boards.style.gridTemplateColumns = `repeat(${cards.length}, max-content)`;
  const tallest = Math.max(...cards.map((card) => card.offsetHeight));
  const cardRatio = (CARD_UNITS * MEASURE_UNIT_PX) / tallest;
  const top = boards.getBoundingClientRect().top + window.scrollY;
  const bottom = parseFloat(getComputedStyle(document.querySelector("main")).paddingBottom) || 0;
  const width = boards.clientWidth;
  const height = window.innerHeight - top - bottom;
  const grid = bestGrid(cards.length, width, height, cardRatio);
  // Whole hundredths of a pixel per unit, rounded down: the cards never outgrow the screen.
  const unit = Math.floor((grid.cardWidth / CARD_UNITS) * 100) / 100;
  boards.style.setProperty("--u", `${unit}px`);
  // A card held back by the screen's height takes the width its column has to spare, for the
  // players' names (they were cut, "Selam Tes…", beside 280 px of margin); its board stays as large.
  const columnWidth = Math.floor((width - GAP_PX * (grid.columns - 1)) / grid.columns);
  boards.style.setProperty("--card-width", `${Math.max(columnWidth, Math.floor(unit * CARD_UNITS))}px`);
  boards.style.gridTemplateColumns = `repeat(${grid.columns}, max-content)`;
  boards.dataset.columns = String(grid.columns);
  boards.dataset.rows = String(grid.rows);
}

function showPage(number) {
  const pages = Math.max(1, Math.ceil(shown.order.length / perPage));
  shown.page = number % pages;
  const onPage = new Set(cardsOnPage());
  for (const card of shown.order) card.hidden = !onPage.has(card);
  const indicator = byId("projector-page-number");
  indicator.hidden = pages < 2;
  const first = shown.page * perPage + 1;
  const last = Math.min(shown.order.length, first + perPage - 1);
  indicator.textContent = pages < 2 ? "" : _("Page %(page)s of %(pages)s · boards %(first)s–%(last)s", { page: shown.page + 1, pages, first, last });
  page.dataset.page = String(shown.page + 1);
  page.dataset.pages = String(pages);
  layout();
}

// One timer for as long as there are pages: a redrawn round (a pairing, a forfeit) does not
// hold the page back by starting the count again.
function turnPages() {
  const needed = shown.order.length > perPage;
  if (needed && shown.timer === null) shown.timer = setInterval(() => showPage(shown.page + 1), turnSeconds * 1000);
  if (!needed && shown.timer !== null) {
    clearInterval(shown.timer);
    shown.timer = null;
  }
}

async function load() {
  const [{ data: t }, { data: variants }] = await Promise.all([getJSON(base), getJSON("/api/variants")]);
  for (const variant of variants.variants) shown.variants.set(variant.name, variant);
  byId("projector-title").textContent = t.name;
  showTimeControl(byId("projector-time-control"), t.time_control);
  document.title = `${t.name} · ` + _("Boards");
  const round = chosenRound ? t.rounds.find((r) => r.round === chosenRound) : t.rounds[t.rounds.length - 1];
  if (!round) {
    byId("projector-round").textContent = chosenRound ? _("Round %(n)s is not paired.", { n: chosenRound }) : _("No round is paired yet.");
    byId("boards").replaceChildren();
    return;
  }
  shown.round = round.round;
  byId("projector-round").textContent = _("Round %(n)s", { n: round.round }) + (round.complete ? _(" (complete)") : "");
  shown.cards.clear();
  shown.order = round.boards.map(boardCard);
  byId("boards").replaceChildren(...shown.order);
  await Promise.all(round.boards.map((b) => drawGame(b.game_id)));
  showPage(shown.page);
  turnPages();
}

function onBoard(board) {
  if (board.round === shown.round && shown.cards.has(board.game_id)) drawGame(board.game_id).then(layout).catch(() => {});
}

window.addEventListener("resize", () => layout());

load()
  .then(async () => {
    const live = listen(`${base}/live`, { board: onBoard, tournament: () => load().catch(() => {}) });
    await Promise.race([live, new Promise((resolve) => { setTimeout(resolve, LIVE_WAIT_MS); })]);
    await document.fonts.ready;
    layout();
    page.dataset.ready = "true";
  })
  .catch((error) => {
    byId("projector-title").textContent = _("The tournament could not be loaded");
    byId("projector-round").textContent = describeProblem(error);
    page.dataset.ready = "error";
  });
