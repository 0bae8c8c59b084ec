// The embeddable boards (/embed/games/{id}, /embed/tournaments/{id}/rounds/{n}): one board,
// or a round's boards, redrawn on each move the public live stream tells of. Every read goes
// out without a token, so the frame shows what the public may see (a tournament's broadcast
// delay holds moves back here too). Nothing of site.js runs: no sign-in, no service worker.
import { renderBoard } from "./board.js";
import { showClocks, showTimeControl } from "./clock.js";
import { bothNames, element } from "./dom.js";
import { _ } from "./i18n.js";
import { statusText } from "./record.js";

const page = document.getElementById("embed-page");
const RESULTS = { south_wins: "1–0", north_wins: "0–1", draw: "½–½", double_forfeit: "0–0" };
const RECONNECT_MS = 5000;
const variants = new Map();
const cards = new Map(); // game id -> { card, pairing }

async function read(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" }, cache: "no-store" });
  if (!response.ok) {
    const error = new Error(`${path} answered ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return response.json();
}

const watchLink = (gameId, ...shown) =>
  element("a", { href: `/games/${encodeURIComponent(gameId)}/watch`, target: "_blank", rel: "noopener" }, ...shown);

// "South – North", each in both scripts where the registry has the Ge'ez (dom.js, bothNames).
const pairingNames = (south, southGeez, north, northGeez) => [bothNames(south, southGeez), " – ", bothNames(north, northGeez)];

function card(gameId, pairing) {
  const title = pairing ? [_("Board %(n)s", { n: pairing.board }) + ": ",
    ...pairingNames(pairing.south.name, pairing.south.name_geez, pairing.north.name, pairing.north.name_geez)] : [];
  const heading = gameId ? [watchLink(gameId, ...title)] : title;
  const shown = element("section", { class: "embed-card", "data-game": gameId || "" },
    element("h2", {}, ...heading), element("p", { class: "embed-status" }),
    element("div", { class: "embed-clocks clocks", hidden: true }), element("div", { class: "embed-board" }));
  if (gameId) cards.set(gameId, { card: shown, pairing });
  return shown;
}

async function draw(gameId) {
  const { card: shown, pairing } = cards.get(gameId);
  let game;
  try {
    game = await read(`/api/games/${encodeURIComponent(gameId)}`);
  } catch (error) {
    if (error.status !== 404 || !pairing) throw error;
    shown.querySelector(".embed-status").textContent = pairing.result ? RESULTS[pairing.result] : _("not started");
    return;
  }
  const names = { south: game.south, north: game.north };
  if (!pairing) {
    shown.querySelector("h2").replaceChildren(watchLink(gameId, ...pairingNames(game.south, game.south_geez, game.north, game.north_geez)));
    showTimeControl(document.getElementById("embed-time-control"), game.metadata && game.metadata.time_control);
  }
  renderBoard(shown.querySelector(".embed-board"), variants.get(game.variant), game.state,
    { sowable: new Set(), names, at: game.version, version: game.version });
  shown.querySelector(".embed-status").textContent = statusText(game.state, names);
  showClocks(shown.querySelector(".embed-clocks"), game.clock, names);
  shown.dataset.version = String(game.version);
}

// Redraw a game once per burst of events: one read in flight, one more if events came meanwhile.
const redrawing = new Map();
function redraw(gameId) {
  if (!cards.has(gameId)) return;
  const state = redrawing.get(gameId);
  if (state) { state.again = true; return; }
  const entry = { again: false };
  redrawing.set(gameId, entry);
  draw(gameId).catch(() => {}).finally(() => {
    redrawing.delete(gameId);
    if (entry.again) redraw(gameId);
  });
}

function listen(url, handlers) {
  if (!("EventSource" in window)) return;
  const open = () => {
    const source = new EventSource(url);
    for (const [name, handle] of Object.entries(handlers)) {
      source.addEventListener(name, (event) => handle(JSON.parse(event.data)));
    }
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) setTimeout(open, RECONNECT_MS);
    };
  };
  open();
}

async function loadGame(gameId) {
  document.getElementById("boards").replaceChildren(card(gameId, null));
  await draw(gameId);
  const redrawn = () => redraw(gameId);
  listen(`/api/games/${encodeURIComponent(gameId)}/live`, { version: redrawn, recorded: redrawn });
}

async function loadRound(tournamentId, roundNumber) {
  const base = `/api/tournaments/${encodeURIComponent(tournamentId)}`;
  const tournament = await read(base);
  document.getElementById("embed-title").textContent = `${tournament.name} · ` + _("Round %(n)s", { n: roundNumber });
  showTimeControl(document.getElementById("embed-time-control"), tournament.time_control);
  const round = tournament.rounds.find((r) => r.round === roundNumber);
  cards.clear();
  const boards = round ? round.boards : [];
  document.getElementById("boards").replaceChildren(
    ...(round ? boards.map((b) => card(b.game_id, b)) : [element("p", { text: _("Round %(n)s is not paired yet.", { n: roundNumber }) })]));
  await Promise.all(boards.filter((b) => b.game_id).map((b) => draw(b.game_id)));
}

async function start() {
  const { variants: known } = await read("/api/variants");
  for (const variant of known) variants.set(variant.name, variant);
  const { gameId, tournamentId } = page.dataset;
  if (gameId) return loadGame(gameId);
  const roundNumber = Number(page.dataset.round);
  await loadRound(tournamentId, roundNumber);
  listen(`/api/tournaments/${encodeURIComponent(tournamentId)}/live`, {
    board: (board) => { if (board.round === roundNumber) redraw(board.game_id); },
    tournament: () => loadRound(tournamentId, roundNumber).catch(() => {}),
  });
}

start()
  .then(() => { page.dataset.ready = "true"; })
  .catch((error) => {
    const why = error.status === 404 ? _("There is no such tournament here.") : _("The board could not be loaded; reload to try again.");
    document.getElementById("boards").replaceChildren(element("p", { class: "embed-status", text: why }));
    page.dataset.ready = "error";
  });
