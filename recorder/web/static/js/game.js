// The game page: the board, recording by tapping holes and filling the due decision,
// stepping through the effective line, the explanation of each event, the round
// table, corrections and downloads. Every read and write goes through the JSON API;
// every write carries the version the page last saw, so a change made on another
// device is reported and reloaded, never overwritten. Without the network a move is
// queued on the device and sent when it returns (offline.js); while moves are queued the
// board is the position after them, folded by the service's own rules running on this
// device (rules.js), when they have loaded. A move recorded on another device arrives
// by Server-Sent Events (GET …/live) and the page reloads it.
// Above the board, the clocks (game-clock.js): the device clock, or readings typed from a
// physical one, go with each sowing, decision and result recorded here.
// In the spectator view (/games/{id}/watch, data-mode="watch") nothing can be recorded;
// nor on the game page until the service says this device's token may write this game
// (data-can-record): until then, and without such a token, the page is read-only.
import { Conflict, describeProblem, getJSON, getOptional, getText, idempotencyKey, Offline, sendCommand } from "./api.js";
import { renderBoard } from "./board.js";
import { showTimeControl, timeControlLine } from "./clock.js";
import { _, date } from "./i18n.js";
import { resetToolForms, showDecision, wireForms } from "./decisions.js";
import { OfflineRecorder, refusedWords, SAY } from "./offline.js";
import { keepInView, renderRounds } from "./panels.js";
import { effectiveLine, moveText, optionsText, statusText, turnsOf } from "./record.js";
import { GameClock, moveTimeWords, TypedReadingInvalid } from "./game-clock.js";
import { wireDossierCheck } from "./dossier-check.js";
import { Signoffs } from "./signoffs.js";
import { DeviceRules } from "./rules.js";
import { bothNames, bothNamesText, clearNotice, element, keepForOffline, listen, notify, pageAccess, PLAYER, REVOKED_TOKEN, VIEWING_ONLY } from "./site.js";
import { renderTrace, stepsOf } from "./trace.js";

const page = document.getElementById("game-page");
const gameId = page.dataset.gameId;
const watching = page.dataset.mode === "watch";
const base = `/api/games/${encodeURIComponent(gameId)}`;
const byId = (id) => document.getElementById(id);

const URLS = {
  notation: `${base}/notation`,
  moves: `${base}/moves`,
  svg: `${base}/board.svg`,
};

const view = {
  variant: null, game: null, etag: null, log: [], line: null, plies: [], index: 0,
  shown: null, busy: false, stale: true, canRecord: false, request: 0, notation: new Map(), notationRequest: 0,
  written: new Map(), // seq -> the move as GET …/moves gives it (its think time, its reading)
  projection: null, // { key, answer }: the queue folded by the rules on this device
};

const names = () => ({ south: view.game.south, north: view.game.north });
const isLatest = () => view.index === view.plies.length - 1;

// -- Loading -------------------------------------------------------------------------

async function load(tries = 3) {
  const [{ data: game, etag }, { data: log }] = await Promise.all([getJSON(base), getJSON(`${base}/events`)]);
  const last = log.events[log.events.length - 1];
  if (last && last.seq !== game.version && tries > 0) return load(tries - 1); // written between the two reads
  view.game = game;
  view.etag = etag;
  view.log = log.events;
  view.stale = false;
  if (!view.variant) view.variant = await findVariant(game.variant);
  renderHeader();
  await showLatest();
  signoffs.show(game, view.line.moves, view.notation).catch(() => {});
  keepForOffline([location.pathname, base, `${base}/events`, URLS.moves, "/api/variants"]);
}

async function findVariant(name) {
  const { data } = await getJSON("/api/variants");
  return data.variants.find((v) => v.name === name);
}

// The notation text is read when the reader opens it, so it is always the latest.
async function showNotation() {
  if (!byId("notation-panel").open) return;
  byId("notation").textContent = (await getText(URLS.notation)) || "";
}

// Each move as the notation writes it (turn numbers, passes); the plain labels stand until it arrives.
async function refreshMoveNotation() {
  const request = ++view.notationRequest;
  const moves = await getOptional(URLS.moves).catch(() => null);
  if (!moves || request !== view.notationRequest) return;
  view.notation = new Map(moves.moves.map((move) => [move.seq, move.notation]));
  view.written = new Map(moves.moves.map((move) => [move.seq, move]));
  renderMoves();
  renderStepper(view.plies[view.index]);
  showNotation();
}

// -- Showing one ply -----------------------------------------------------------------

async function show(index) {
  const request = ++view.request;
  view.index = Math.max(0, Math.min(index, view.plies.length - 1));
  const ply = view.plies[view.index];
  const answer = isLatest() ? await projected() : null;
  const state = !isLatest() ? (await getJSON(`${base}/state?at=${ply.seq}`)).data
    : answer && answer.states.length ? answer.states[answer.states.length - 1] : view.game.state;
  if (request !== view.request) return; // a later step overtook this one
  view.shown = state;
  drawBoard(state, ply, answer);
  clocks.show({ state, ply, latest: isLatest(), known: isLatest() && (!offline.holding || Boolean(answer)) });
  renderStatus(state, answer);
  offline.render();
  if (isLatest()) checkReplacement();
  renderStepper(ply);
  renderRounds(state);
  showDecision({ variant: view.variant, state, latest: isLatest() && view.canRecord, names: names(), moveCount: view.line.moves.length });
  updateDownloads();
  loadTrace(ply.seq, request);
}

function drawBoard(state, ply, answer) {
  const latest = isLatest();
  const canSow = latest && view.canRecord && !view.busy && !state.awaiting && !state.game_over && !offline.conflict;
  const sowable = !canSow ? [] : !offline.holding ? state.legal_moves : answer ? (answer.refused ? [] : state.legal_moves)
    : rulesComing() ? [] // they are starting: no hole until they say which are legal after the queue
    // With no rules to come on this device the board is the last recorded position, not the one
    // being played: any hole may be tapped, and the server judges the queue when the network returns.
    : variantHoles();
  renderBoard(byId("board"), view.variant, state, {
    sowable: new Set(sowable),
    queued: latest ? offline.queuedHoles() : [],
    onSow: (hole) => send({ type: "sow", hole }),
    lastHole: answer && answer.states.length ? lastQueuedHole() : ply.type === "sowed" ? ply.payload.hole : null,
    names: names(),
    at: ply.seq,
    version: view.game.version,
  });
  byId("viewing").hidden = latest;
  byId("viewing-text").textContent = latest ? "" : _("You are looking at the position after move %(move)s of %(moves)s.", { move: view.index, moves: view.plies.length - 1 });
}

const variantHoles = () => view.variant.board.holes;
const rulesComing = () => deviceRules.state === "standby" || deviceRules.state === "loading";
const lastQueuedHole = () => {
  const last = offline.pending[offline.pending.length - 1];
  return last && last.command.type === "sow" ? last.command.hole : null;
};

// The queue folded onto the recorded log by the rules on this device, or null (no queue,
// a conflict to settle first, or no rules here). Asked again only when either changes.
async function projected() {
  if (!offline.holding || offline.conflict || !deviceRules.ready) {
    offline.localRefusal = null;
    return null;
  }
  const key = projectionKey();
  if (!view.projection || view.projection.key !== key) {
    try {
      view.projection = { key, answer: await deviceRules.fold(view.log, offline.pending.map((entry) => entry.command)) };
    } catch (error) {
      console.warn("the rules on this device could not fold the queue", error);
      return null;
    }
  }
  offline.localRefusal = view.projection.answer.refused;
  return view.projection.answer;
}

// In a conflict: would "withdraw theirs and record mine" be accepted? The rules here say.
async function checkReplacement() {
  if (!offline.conflict || !deviceRules.ready) return offline.showReplacementCheck(null);
  const answer = await deviceRules.fold(view.log, offline.replacement()).catch(() => null);
  offline.showReplacementCheck(offline.conflict ? answer : null);
}

const projectionKey = () => JSON.stringify([view.log.length, view.game.version, offline.pending.map((entry) => entry.key)]);

function renderStatus(state, answer) {
  const queued = answer && offline.holding ? `${SAY.queuedAfter(offline.pending.length)} ` : "";
  byId("game-status").textContent = statusText(state, names());
  byId("game-status").dataset.queued = String(answer ? offline.pending.length : 0);
  byId("prompt").textContent = view.canRecord ? `${queued}${promptText(state, answer)}` : "";
}

function promptText(state, answer) {
  if (!isLatest()) return _("Go to the latest position to record.");
  if (state.game_over || state.awaiting || !state.to_move || offline.conflict || (answer && answer.refused)) return "";
  if (offline.holding && !answer) return rulesComing() ? SAY.promptRulesStarting : SAY.promptWithoutRules;
  return state.legal_moves.length
    ? _("%(side)s (%(name)s): tap a highlighted hole to record the sowing.", { side: PLAYER[state.to_move], name: names()[state.to_move] })
    : _("No sowing can be recorded here (GEN-35): record a result.");
}

async function loadTrace(seq, request) {
  let steps = null;
  try {
    steps = stepsOf(await getOptional(`${base}/events/${seq}/trace`));
  } catch { steps = null; }
  if (request !== view.request) return;
  renderTrace(byId("trace"), steps, seq === 1 ? _("The start position.") : null);
}

// -- Header, moves, stepper, rounds --------------------------------------------------

function renderHeader() {
  const game = view.game;
  byId("game-title").replaceChildren(`${view.variant.title}: `, bothNames(game.south, game.south_geez), " – ",
    bothNames(game.north, game.north_geez));
  const meta = game.metadata || {};
  byId("game-meta").textContent = [meta.event, meta.site, date(meta.date), meta.round && _("round %(round)s", { round: meta.round })]
    .filter(Boolean).join(" · ");
  byId("game-rules").textContent = optionsText(view.variant, game.options);
  showTimeControl(byId("game-time-control"), meta.time_control, timeControlLine);
  document.title = `${view.variant.title}: ${bothNamesText(game.south, game.south_geez)} – ${bothNamesText(game.north, game.north_geez)}`;
}

// One cell per turn (the notation's grouping); each sowing in it is a button to step to.
function renderMoves() {
  const cells = turnsOf(view.plies, view.notation).map((turn) => {
    const parts = turn.plies.flatMap((ply) => {
      const event = view.plies[ply.index];
      const written = view.notation.get(event.seq);
      const button = element("button", { type: "button", class: "ply", "data-ply": ply.index, "data-seq": event.seq,
        "data-notation": written || null, title: (event.type === "sowed" && written) || moveText(event) }, ply.text);
      button.addEventListener("click", () => show(ply.index));
      const comments = (view.line.comments.get(event.seq) || []).map((text) => element("p", { class: "comment", text }));
      const time = moveTimeWords(view.written.get(event.seq));
      const timed = time ? element("span", { class: "ply-time", "data-seq": event.seq, title: time.title, translate: "no" }, time.text) : null;
      return [button, ply.rest ? element("span", { class: "pass", text: ply.rest }) : null, timed, ...comments];
    });
    return element("li", { class: "move-turn" }, turn.label ? element("span", { class: "turn-label", text: turn.label }) : null, ...parts);
  });
  byId("moves").replaceChildren(...cells);
  byId("corrections").replaceChildren(...view.line.corrections.map(({ event, withdrawn }) => element("li", {
    text: _("%(move)s (withdrew %(moves)s)", { move: moveText(event), moves: withdrawn.map((e) => moveText(e)).join(", ") }),
  })));
}

function renderStepper(ply) {
  const slider = byId("step-slider");
  slider.max = String(view.plies.length - 1);
  slider.value = String(view.index);
  slider.setAttribute("aria-valuetext", _("move %(n)s: %(move)s", { n: view.index, move: moveText(ply) }));
  byId("step-label").textContent = `${view.index} / ${view.plies.length - 1}`;
  const written = ply.type === "sowed" && view.notation.get(ply.seq);
  byId("step-move").textContent = view.index ? written || moveText(ply) : _("Start");
  byId("step-first").disabled = byId("step-prev").disabled = view.index === 0;
  byId("step-last").disabled = byId("step-next").disabled = isLatest();
  for (const button of byId("moves").querySelectorAll(".ply")) {
    const current = Number(button.dataset.ply) === view.index;
    button.classList.toggle("current", current);
    if (current) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  }
  keepInView(byId("moves"), byId("moves").querySelector(".ply.current"));
}

function updateDownloads() {
  const seq = view.plies.length ? view.plies[view.index].seq : 1;
  const links = {
    "download-svg": [`${URLS.svg}?at=${seq}`, `${gameId}-${seq}.svg`],
    "download-notation": [URLS.notation, `${gameId}.mn`],
    "download-json": [`${base}/events`, `${gameId}-events.json`],
  };
  for (const [id, [href, name]] of Object.entries(links)) {
    const link = byId(id).querySelector("a");
    link.href = href;
    link.download = name;
  }
}

// -- Recording -----------------------------------------------------------------------

async function send(asked) {
  if (view.busy || !view.canRecord) return; // one write at a time: a double tap must not become two moves
  const command = timed(asked);
  if (!command) return;
  if (offline.holding || !navigator.onLine) {
    view.busy = true; // no second tap until this move is queued and the board redrawn after it
    setBusy(true);
    try {
      await queue(command, idempotencyKey());
    } finally {
      view.busy = false;
      setBusy(false);
    }
    return show(view.plies.length - 1);
  }
  view.busy = true;
  view.stale = true; // until the answer proves nothing else was written in between
  setBusy(true);
  const key = idempotencyKey(); // kept if the command is queued: a lost answer must not store it twice
  try {
    const { data, etag } = await sendCommand(gameId, command, view.etag, key);
    clocks.committed();
    recorded(data, etag);
    byId("action-error").hidden = true;
    clearNotice();
    resetToolForms();
    keepForOffline([base, `${base}/events`]);
  } catch (error) {
    if (error instanceof Offline) {
      view.busy = false;
      view.stale = false;
      await queue(command, key);
    } else if (error instanceof Conflict) {
      clocks.dropped();
      notify(_("Another device changed this game since this page last saw it. The page has reloaded it; nothing of yours was recorded — check the board and record again."), "conflict");
    } else {
      clocks.dropped();
      byId("action-error").textContent = describeProblem(error);
      byId("action-error").hidden = false;
    }
  } finally {
    view.busy = false;
  }
  try {
    if (view.stale) await load();
    else await showLatest();
  } finally {
    setBusy(false);
  }
}

// The command with the clocks' reading it carries (clocks.stamp), or null when the readings
// typed in are not times (the page says so and records nothing).
function timed(command) {
  try {
    return clocks.stamp(command, view.shown);
  } catch (error) {
    if (!(error instanceof TypedReadingInvalid)) throw error;
    byId("action-error").textContent = error.message;
    byId("action-error").hidden = false;
    return null;
  }
}

// A recorded command answers with its events and the new state: no need to read them again.
function recorded(data, etag) {
  const last = view.log[view.log.length - 1];
  if (data.events[0].seq !== last.seq + 1) return; // something else was written: `stale` stays set
  view.log.push(...data.events);
  // The clocks' face was the service's before this command: the page's record stands until the next read.
  view.game = { ...view.game, state: data.state, version: data.version, clock: null };
  view.etag = etag;
  view.stale = false;
}

// Offline: the command waits on this device. With the rules here it is checked first (a
// decision form can still ask for what the rules refuse) and the board moves on past it.
async function queue(command, key) {
  deviceRules.start(); // the network is down: the rules are needed now (a no-op once started)
  if (deviceRules.ready && !offline.conflict) {
    const commands = [...offline.pending.map((entry) => entry.command), command];
    const answer = await deviceRules.fold(view.log, commands).catch(() => null);
    if (answer && answer.refused && answer.refused.index === commands.length - 1) {
      clocks.dropped();
      byId("action-error").textContent = SAY.notQueued(refusedWords(answer.refused));
      byId("action-error").hidden = false;
      await show(view.plies.length - 1);
      return;
    }
    await offline.add(command, key);
    clocks.committed();
    if (answer) view.projection = { key: projectionKey(), answer };
  } else {
    await offline.add(command, key);
    clocks.committed();
  }
  byId("action-error").hidden = true;
  resetToolForms();
  await show(view.plies.length - 1);
}

async function showLatest() {
  view.line = effectiveLine(view.log);
  view.plies = [view.log[0], ...view.line.moves];
  clocks.read(view.game, view.plies);
  renderMoves();
  refreshMoveNotation();
  await show(view.plies.length - 1);
}

function setBusy(busy) {
  page.setAttribute("aria-busy", String(busy));
  if (busy) for (const hole of byId("board").querySelectorAll(".hole")) hole.disabled = true;
}

// -- Keyboard and buttons ------------------------------------------------------------

function step(delta) {
  show(view.index + delta);
}

function onKey(event) {
  const target = event.target;
  if (target.closest("input, select, textarea, [contenteditable]")) return;
  const moves = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => show(0), End: () => show(view.plies.length - 1) };
  if (moves[event.key] && !event.altKey && !event.ctrlKey && !event.metaKey) {
    event.preventDefault();
    moves[event.key]();
  }
}

// Another device's move: read the game again, unless this page is writing (its answer will do).
let reloadTimer = null;
function heard(version) {
  if (!view.game || version <= view.game.version) return;
  if (view.busy || offline.flushing) {
    view.stale = true;
    return;
  }
  clearTimeout(reloadTimer);
  reloadTimer = setTimeout(() => load().catch(() => {}), 30);
}

function wire() {
  byId("step-first").addEventListener("click", () => show(0));
  byId("step-prev").addEventListener("click", () => step(-1));
  byId("step-next").addEventListener("click", () => step(1));
  byId("step-last").addEventListener("click", () => show(view.plies.length - 1));
  byId("to-latest").addEventListener("click", () => show(view.plies.length - 1));
  byId("step-slider").addEventListener("input", (event) => show(Number(event.target.value)));
  byId("notation-panel").addEventListener("toggle", showNotation);
  document.addEventListener("keydown", onKey);
  wireForms(() => ({ state: view.shown }), send);
  clocks.wire();
}

// The rules on this device: the page says whether they are loaded, and once they are, a
// queue already waiting is shown folded.
const deviceRules = new DeviceRules(page, () => {
  offline.rulesReady = deviceRules.ready;
  const line = byId("rules-status");
  line.textContent = {
    none: SAY.rulesMissing, standby: SAY.rulesStandby, loading: SAY.rulesLoading, ready: SAY.rulesReady, failed: SAY.rulesMissing,
  }[deviceRules.state];
  line.hidden = false;
  if (view.game && offline.holding) show(view.plies.length - 1);
});

wireDossierCheck(deviceRules);

const signoffs = new Signoffs(gameId, { reload: () => load(), canDecide: () => view.canRecord });
signoffs.wire();

const clocks = new GameClock(gameId, { send: (command) => send(command) });

const offline = new OfflineRecorder(gameId, {
  version: () => view.game.version,
  reload: () => load().catch(() => show(view.plies.length - 1)),
  changed: () => show(view.plies.length - 1), // the queued holes are marked on the latest position
});

// Whether this device may record here: a token the service says may write this game
// (offline: the token this device holds, as before). Otherwise the page says why and how
// to sign in, and offers nothing to tap.
async function learnAccess() {
  if (watching) return;
  const answer = await pageAccess;
  const principal = answer.principal;
  view.canRecord = Boolean(principal) && (answer.offline || principal.may_write !== false);
  page.dataset.canRecord = String(view.canRecord);
  if (view.canRecord) return;
  byId("read-only-title").textContent = VIEWING_ONLY;
  const refusal = principal?.refusal || _("no write access");
  byId("read-only-why").textContent = !principal
    ? (answer.why === "revoked" ? REVOKED_TOKEN : _("This device is not signed in, so nothing can be recorded here."))
    : _("This device is signed in as %(holder)s, who may not record this game: %(why)s.", { holder: principal.holder, why: refusal });
  byId("read-only").hidden = false;
}

wire();
Promise.all([load(), learnAccess()])
  .then(() => clocks.allow(view.canRecord))
  .then(() => show(view.plies.length - 1))
  .then(() => (view.canRecord ? offline.start() : null))
  .then(() => {
    if (!view.canRecord) return;
    deviceRules.prepare();
    if (offline.holding || !navigator.onLine) deviceRules.start();
  })
  .then(() => {
    listen(`${base}/live`, {
      version: (data) => heard(data.version),
      recorded: (data) => heard(data.seq),
    });
    page.setAttribute("data-ready", "true");
  })
  .catch((error) => {
    notify(_("The game could not be loaded: %(problem)s", { problem: describeProblem(error) }), "error");
  });
