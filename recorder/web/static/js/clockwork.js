// The arithmetic of a game clock, pure (no page, no time source: `now` is always given):
// the stages of a time control (recorder/core/clocks.py), the Fischer increment, the
// Bronstein delay, switching from one player to the other, the flag, and a typed reading.
// The game page's device clock is this and a time source; clock.js writes the times.
//
// A clock is a plain value, kept as it is on the device (localStorage) across a reload:
//   { south, north,            remaining ms of each player when `since` began
//     running, since,          the side whose time runs (or null) and from when (ms)
//     sowings: {south, north}, sowings made by each (the stages count them)
//     paused }                 stopped by the arbiter (clocks_paused)
// Every function returns a new clock; none changes the one it is given.

export const SIDES = ["south", "north"];
export const other = (side) => (side === "south" ? "north" : "south");

// The stage a player is in after `sowings` sowings, and how many sowings its end is away.
export function stageOf(control, sowings) {
  let left = sowings;
  for (const [index, stage] of control.stages.entries()) {
    if (!stage.moves || left < stage.moves) return { index, stage, toGo: stage.moves ? stage.moves - left : null };
    left -= stage.moves;
  }
  const index = control.stages.length - 1; // unreachable for a control core.clocks accepts (its last stage has no moves)
  return { index, stage: control.stages[index], toGo: null };
}

// The clock before the first move: each player's base time, nothing running. With a
// reading already recorded and the sowings counted (a game under way), from there.
export function startClock(control, { reading = null, sowings = { south: 0, north: 0 } } = {}) {
  const base = control.stages[0].base_ms;
  return {
    south: reading ? reading.south : base, north: reading ? reading.north : base,
    running: null, since: null, sowings: { ...sowings }, paused: false,
  };
}

// The time a player has spent of his own since `since`: the Bronstein delay runs first.
function charged(control, clock, side, now) {
  if (clock.running !== side || clock.since === null) return 0;
  const used = Math.max(0, now - clock.since);
  const delay = stageOf(control, clock.sowings[side]).stage.delay_ms || 0;
  return Math.max(0, used - delay);
}

// A player's remaining time at `now` (below 0 once his flag has fallen).
export const remaining = (control, clock, side, now) => clock[side] - charged(control, clock, side, now);

// Both players' remaining times at `now`, as an event carries them: whole ms, never below 0.
export function readingAt(control, clock, now) {
  const at = (side) => Math.max(0, Math.round(remaining(control, clock, side, now)));
  return { south: at("south"), north: at("north") };
}

// The side whose flag has fallen at `now`, or null. Only a running clock can fall.
export function fallen(control, clock, now) {
  const side = clock.running;
  return side && remaining(control, clock, side, now) <= 0 ? side : null;
}

// The clock stopped at `now`: the running side charged, nothing running.
export function stopped(control, clock, now) {
  const reading = readingAt(control, clock, now);
  return { ...clock, ...reading, running: null, since: null };
}

// `side`'s clock runs from `now` (null: none runs); the one running before is charged.
export function running(control, clock, side, now) {
  return { ...stopped(control, clock, now), running: side, since: side ? now : null, paused: false };
}

// After `player`'s sowing at `now`: his time charged, his increment added, the sowing
// counted, and, when it ends his stage, the next stage's base time added. Nothing runs
// until the page knows who is to move (running()).
export function sowed(control, clock, player, now) {
  const after = stopped(control, clock, now);
  const { stage, toGo } = stageOf(control, clock.sowings[player]);
  const next = toGo === 1 ? control.stages[stageOf(control, clock.sowings[player] + 1).index] : null;
  return {
    ...after,
    [player]: after[player] + (stage.increment_ms || 0) + (next ? next.base_ms : 0),
    sowings: { ...clock.sowings, [player]: clock.sowings[player] + 1 },
  };
}

// The readings typed in from a physical clock: the device clock takes them as they are.
export const reset = (clock, reading) => ({ ...clock, south: reading.south, north: reading.north });

// -- What a record's readings say -------------------------------------------------------

// The readings in force after each effective move (the game page's plies, `{ seq, type,
// payload }`): its own, else the latest before it, else the base time. Map seq -> reading.
export function readingsInForce(control, plies) {
  const readings = new Map();
  let latest = control ? { south: control.stages[0].base_ms, north: control.stages[0].base_ms } : null;
  for (const ply of plies) {
    if (ply.payload && ply.payload.clock) latest = ply.payload.clock;
    readings.set(ply.seq, latest);
  }
  return readings;
}

// A think time, M:SS (H:MM:SS from an hour), with tenths when not whole seconds.
export function thinkText(ms) {
  const seconds = Math.floor(ms / 1000);
  const tenths = Math.floor((ms % 1000) / 100);
  const hours = Math.floor(seconds / 3600);
  const clock = `${hours ? `${hours}:${pad(Math.floor(seconds / 60) % 60)}` : Math.floor(seconds / 60)}:${pad(seconds % 60)}`;
  return tenths ? `${clock}.${tenths}` : clock;
}

const pad = (n) => String(n).padStart(2, "0");

// A time typed from a physical clock, H:MM:SS, M:SS or S (each with .mmm if need be), as
// ms; null when it is not such a time.
export function typedMs(text) {
  const match = /^\s*(?:(?:(\d{1,3}):)?([0-5]?\d):)?([0-5]?\d)(?:\.(\d{1,3}))?\s*$/.exec(text || "");
  if (!match) return null;
  const [, hours, minutes, seconds, millis] = match;
  const whole = (Number(hours || 0) * 60 + Number(minutes || 0)) * 60 + Number(seconds);
  return whole * 1000 + (millis ? Number(millis.padEnd(3, "0")) : 0);
}
