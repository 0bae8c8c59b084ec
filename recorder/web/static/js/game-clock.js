// The clocks on the game page, above the board.
// - The device clock (a game with a time control, on a device that records it): started by
//   the arbiter, it runs the time of the player to move, and each sowing or decision
//   recorded here stops it, adds the increment (clockwork.js does the arithmetic) and
//   carries the reading, both players' remaining times, in its command's `clock`. Offline
//   the readings are queued with the moves. The clock is kept on the device
//   (localStorage), its instants in the wall clock's milliseconds, so a reload finds it
//   where it was; while the page is open it is moved on by the monotonic clock. A flag
//   that falls is shown at once, with the `time` result offered, never recorded by itself.
// - Readings typed in from a physical clock go with the next move or result recorded.
// - Pausing and resuming the clocks are commands (`pause_clocks`, `resume_clocks`) in the
//   game's record.
// - Elsewhere the faces show the service's face of the clocks ticking (core.clocks
//   clock_face), or, at an earlier position, the reading in force after the move shown;
//   the move list shows each sowing's think time (GET …/moves, `think_ms`).
import { clockText } from "./clock.js";
import * as work from "./clockwork.js";
import { _ } from "./i18n.js";
import { PLAYER } from "./site.js";

const KEPT = "recorder.clock."; // + the game's id: the device clock of that game
const TIMED = new Set(["sow", "opening", "race", "lot", "next_round", "result", "pause_clocks", "resume_clocks"]);
const byId = (id) => document.getElementById(id);

// The device's time, in the wall clock's milliseconds: read once when the page opens, then
// moved on by the monotonic clock, so a wall clock set meanwhile does not move the clocks.
const opened = { wall: Date.now(), mono: performance.now() };
export const deviceNow = () => Math.round(opened.wall + (performance.now() - opened.mono));

export class TypedReadingInvalid extends Error {}

export const CLOCK_SAY = {
  typedInvalid: _("Type both clocks' readings as hours:minutes:seconds (e.g. 1:29:58), or neither."),
  paused: _("The clocks are paused."),
  notStarted: _("The device clock has not started: start it when the player to move begins to think."),
  fallen: (side) => _("%(player)s's flag has fallen.", { player: PLAYER[side] }),
  timeResult: (side) => _("Record the result: %(player)s wins on time", { player: PLAYER[work.other(side)] }),
  think: (think, left, side) => _("%(think)s taken; %(left)s left on %(player)s's clock", { think, left, player: PLAYER[side] }),
};

export class GameClock {
  // hooks.send(command): record a command as a tap would (the page's own send).
  constructor(gameId, hooks) {
    this.kept = KEPT + gameId;
    this.hooks = hooks;
    this.control = null;
    this.clock = null; // the device clock once started here: clockwork's value plus `started`
    this.stamped = null; // { clock, typed }: what the command being recorded would leave
    this.readings = new Map();
    this.plies = [];
    this.face = null;
    this.view = null; // { state, ply, latest, known }: what the page shows (show())
    this.timer = null;
  }

  // The record as the page has it: the game (its time control) and its effective moves.
  read(game, plies) {
    this.control = (game.metadata && game.metadata.time_control) || null;
    this.face = game.clock || null; // the service's view of the clocks (core.clocks.clock_face)
    this.plies = plies;
    this.readings = work.readingsInForce(this.control, plies);
  }

  // This device may record the game: its device clock, if it was started here, runs on.
  allow(canRecord) {
    this.canRecord = canRecord;
    this.clock = this.control && canRecord ? restore(this.kept) : null;
  }

  wire() {
    byId("clock-start").addEventListener("click", () => this.start());
    byId("clock-pause").addEventListener("click", () => this.hooks.send({ type: "pause_clocks" }));
    byId("clock-resume").addEventListener("click", () => this.hooks.send({ type: "resume_clocks" }));
    byId("clock-time-result").addEventListener("click", () => {
      const side = this.fallen();
      if (side) this.hooks.send({ type: "result", kind: "time", winner: work.other(side) });
    });
  }

  // The page shows the position after `ply`; `known`: `state` is the position after every move
  // recorded or queued (not the last recorded board while moves wait without the rules).
  show({ state, ply, latest, known }) {
    if (latest && known) this.follow(state);
    this.view = { state, ply, latest, known };
    this.render();
  }

  get ticking() {
    return Boolean(this.clock && this.clock.started);
  }

  start() {
    const state = this.view.state;
    this.clock = { ...work.running(this.control, this.clock || this.recordedClock(), state.to_move || null, deviceNow()), started: true };
    this.save();
    this.render();
  }

  // The clock as the record leaves it: its latest reading (or the base time) and the sowings made.
  recordedClock() {
    const last = this.plies.length ? this.readings.get(this.plies[this.plies.length - 1].seq) : null;
    return work.startClock(this.control, { reading: last, sowings: this.sowings() });
  }

  sowings() {
    const sowings = { south: 0, north: 0 };
    for (const ply of this.plies) if (ply.type === "sowed") sowings[ply.payload.player] += 1;
    return sowings;
  }

  // The position after the latest move is known: its player to move is the one whose time
  // runs, from the instant that move was recorded (a guess made then is put right, charging
  // nothing twice); at the end of the game nothing runs.
  follow(state) {
    const clock = this.clock;
    if (!this.ticking || clock.paused) return;
    const side = state.game_over ? null : state.to_move || null;
    if (clock.running === side) return;
    this.clock = { ...clock, running: side, since: side ? clock.since ?? deviceNow() : null };
    this.save();
  }

  // -- Recording ------------------------------------------------------------------------

  // `command` with the reading it carries (typed in, or the device clock's), or the command
  // as it is; TypedReadingInvalid when the typed readings are not two times.
  stamp(command, state) {
    this.stamped = null;
    if (!TIMED.has(command.type)) return command;
    const typed = this.typed();
    const now = deviceNow();
    let after = this.ticking && !(this.clock.paused && command.type !== "resume_clocks") ? this.after(command, state, now) : null;
    if (typed && after) after = work.reset(after, typed);
    this.stamped = { clock: after, typed: Boolean(typed) };
    if (command.type === "resume_clocks") return command;
    const reading = typed || (after ? work.readingAt(this.control, after, now) : null);
    return reading ? { ...command, clock: reading } : command;
  }

  // The device clock after `command` at `now`. Who runs next is the rules' to say: until
  // the page has the position after it (follow), the turn passes after a sowing.
  after(command, state, now) {
    const clock = this.clock;
    const control = this.control;
    switch (command.type) {
      case "sow": { // the mover: the player to move, or, on a board the queue has left behind, the clock's
        const mover = this.view.known || !clock.running ? state.to_move : clock.running;
        return { ...work.sowed(control, clock, mover, now), running: work.other(mover), since: now };
      }
      case "result": return work.stopped(control, clock, now);
      case "pause_clocks": return { ...work.stopped(control, clock, now), paused: true };
      case "resume_clocks": return { ...clock, paused: false, running: state.to_move || null, since: now };
      default: return { ...work.stopped(control, clock, now), running: state.to_move || null, since: now };
    }
  }

  // The command was recorded or queued: the device clock is as it left it.
  committed() {
    const stamped = this.stamped;
    this.stamped = null;
    if (!stamped) return;
    if (stamped.clock) this.clock = { ...stamped.clock, started: true };
    if (stamped.typed) byId("clock-typed-form").reset();
    this.save();
    this.render();
  }

  dropped() {
    this.stamped = null;
  }

  // The readings typed in: { south, north } ms, undefined when none, TypedReadingInvalid otherwise.
  typed() {
    const south = byId("clock-typed-south").value.trim();
    const north = byId("clock-typed-north").value.trim();
    if (!south && !north) return undefined;
    const reading = { south: work.typedMs(south), north: work.typedMs(north) };
    if (reading.south === null || reading.north === null) throw new TypedReadingInvalid(CLOCK_SAY.typedInvalid);
    return reading;
  }

  fallen() {
    return this.ticking && !this.clock.paused ? work.fallen(this.control, this.clock, deviceNow()) : null;
  }

  // -- Showing ------------------------------------------------------------------------

  render() {
    clearTimeout(this.timer);
    const view = this.view;
    if (!view) return;
    const running = view.latest ? this.runningClock() : null; // a clock that ticks here
    const now = deviceNow();
    const face = view.latest ? this.face : null; // it has the latest pause's reading too
    const recorded = face ? { south: face.south, north: face.north } : view.ply ? this.readings.get(view.ply.seq) : null;
    const reading = running ? work.readingAt(this.control, running, now) : recorded;
    byId("clock").hidden = !(this.control || reading || this.canRecord);
    byId("clock").querySelector(".clock-faces").hidden = !reading;
    const fallen = running && !running.paused ? work.fallen(this.control, running, now) : null;
    for (const side of work.SIDES) {
      const face = byId("clock").querySelector(`.clock-face[data-side=${side}]`);
      byId(`clock-${side}`).textContent = reading ? clockText(reading[side], { exact: !running }) : "";
      face.dataset.running = String(Boolean(running && !running.paused && running.running === side));
      face.dataset.fallen = String(fallen === side);
    }
    this.renderControls(view, view.latest && this.ticking, fallen);
    if (running && running.running && !running.paused && !fallen) this.timer = setTimeout(() => this.render(), this.nextChange(running));
  }

  // The device clock, or else the service's face of the clocks ticked on from the instant
  // of its latest reading, pause or resume (by this device's clock: a spectator's view).
  runningClock() {
    if (this.ticking) return this.clock;
    const face = this.face;
    if (!this.control || !face || !face.running || face.paused || !face.at) return null;
    // `at` has microseconds, past ECMAScript's date format: read to the millisecond (as clock.js does).
    const since = Date.parse(String(face.at).replace(/(\.\d{3})\d+/, "$1"));
    if (!Number.isFinite(since)) return null;
    return { south: face.south, north: face.north, running: face.running, since, sowings: this.sowings(), paused: false };
  }

  renderControls(view, live, fallen) {
    const over = Boolean(view.state && view.state.game_over);
    const may = this.canRecord && view.latest && !over;
    // Paused: the device clock, or, on a device that runs none, the record (the service's face).
    const paused = live ? this.clock.paused : Boolean(view.latest && this.face && this.face.paused);
    byId("clock-start").hidden = !(may && this.control && !this.ticking && !paused);
    byId("clock-pause").hidden = !(may && live && !paused && !fallen);
    byId("clock-resume").hidden = !(may && paused);
    byId("clock-flag").hidden = !fallen;
    byId("clock-flag").textContent = fallen ? CLOCK_SAY.fallen(fallen) : "";
    byId("clock-time-result").hidden = !(fallen && may && live);
    byId("clock-time-result").textContent = fallen ? CLOCK_SAY.timeResult(fallen) : "";
    byId("clock-status").textContent = paused ? CLOCK_SAY.paused
      : !byId("clock-start").hidden ? CLOCK_SAY.notStarted : "";
    byId("clock-typed-panel").hidden = !may;
  }

  // Milliseconds until the running face shows another second, or the flag falls.
  nextChange(clock) {
    const left = work.remaining(this.control, clock, clock.running, deviceNow());
    return Math.max(1, ((Math.ceil(left) - 1) % 1000) + 1);
  }

  save() {
    try {
      if (this.clock) localStorage.setItem(this.kept, JSON.stringify(this.clock));
    } catch { /* no room: the clock runs on, kept until the page closes */ }
  }
}

function restore(kept) {
  try {
    const clock = JSON.parse(localStorage.getItem(kept) || "null");
    return clock && clock.started ? clock : null;
  } catch {
    return null;
  }
}

// A sowing's time in the move list, from its entry in GET …/moves: the time it took and
// its player's clock after it ({ text, title }), or null when the readings do not say.
export function moveTimeWords(move) {
  if (!move || move.think_ms === undefined || !move.player || !move.clock) return null;
  const think = work.thinkText(move.think_ms);
  const left = clockText(move.clock[move.player], { exact: true });
  return { text: `${think} ${left}`, title: CLOCK_SAY.think(think, left, move.player) };
}
