// The clocks as a device shows them, from a game's clock face (GET /api/games/{id}'s
// `clock`, built by core/clocks.py clock_face): the latest reading, the clock that runs, and
// when the reading was recorded. The device ticks the running clock down by its own clock;
// the server sends nothing per second, only the messages it sent before clocks existed
// (docs/web.md, "Clocks"). Pure but for showClocks, which draws and keeps the clocks ticking.
import { element } from "./dom.js";
import { _, ngettext, number } from "./i18n.js";

const SIDES = ["south", "north"];
const TICK_MS = 200; // a second's change shows within a fifth of a second

// H:MM:SS. A clock counting down shows its whole seconds rounded up, so it reads 0:00:00
// only when the flag has fallen; `exact` adds .mmm when the time is not whole seconds (the
// notation's spelling, docs/notation.md).
export function clockText(ms, { exact = false } = {}) {
  const whole = Math.max(0, Math.round(ms));
  const seconds = exact ? Math.floor(whole / 1000) : Math.ceil(whole / 1000);
  const text = `${Math.floor(seconds / 3600)}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
  return exact && whole % 1000 ? `${text}.${String(whole % 1000).padStart(3, "0")}` : text;
}

const pad = (n) => String(n).padStart(2, "0");

// Each side's remaining milliseconds at `now` (the device's time, ms since 1970): the
// running clock has run since the face's `at`, never below zero; a stopped one stands.
export function remainingAt(face, now) {
  const left = { south: face.south, north: face.north };
  // The server writes microseconds; a date string with more than three decimals is not
  // ECMAScript's own format, so it is cut to milliseconds before it is read.
  const since = Date.parse(String(face.at).replace(/(\.\d{3})\d+/, "$1"));
  if (face.running && Number.isFinite(since)) left[face.running] = Math.max(0, left[face.running] - Math.max(0, now - since));
  return left;
}

// A time control (recorder/core/clocks.py: stages of a base time, each but the last for a
// number of moves, with a Fischer increment or a Bronstein delay) in the reader's words:
// "15 min + 5 s", "90 min + 30 s delay", "40 moves in 90 min + 30 s, then 30 min + 30 s".
// The one wording of the pages; core/clocks.py time_control_words is the CLI's, in English.
export function timeControlText(control) {
  const stages = control.stages.map(stageText);
  return stages.reduce((earlier, later) => _("%(earlier)s, then %(later)s", { earlier, later }));
}

// "Time control: …" for a page's header; "" without a control.
export function timeControlLine(control) {
  return control ? _("Time control: %(control)s", { control: timeControlText(control) }) : "";
}

// Show `control` in words in `paragraph` (`line` writes it), or hide the paragraph without one.
export function showTimeControl(paragraph, control, line = timeControlText) {
  paragraph.hidden = !control;
  paragraph.textContent = control ? line(control) : "";
}

function stageText(stage) {
  const base = durationText(stage.base_ms);
  let time = base;
  if (stage.increment_ms !== undefined) time = _("%(base)s + %(increment)s", { base, increment: durationText(stage.increment_ms) });
  if (stage.delay_ms !== undefined) time = _("%(base)s + %(delay)s delay", { base, delay: durationText(stage.delay_ms) });
  if (stage.moves === undefined) return time;
  return ngettext("%(count)s move in %(time)s", "%(count)s moves in %(time)s", stage.moves, { time });
}

// Whole minutes as minutes (90 min, as chess writes a base time), else seconds, with the
// milliseconds as decimals when there are any (2.5 s); the plural form of a decimal is
// the next whole number's (1.5 takes the form of 2).
function durationText(ms) {
  if (ms % 60_000 === 0) return ngettext("%(count)s min", "%(count)s min", ms / 60_000);
  const seconds = ms / 1000;
  return ngettext("%(count)s s", "%(count)s s", Math.ceil(seconds), { count: number(seconds) });
}

// A pause or resume of the clocks (events clocks_paused, clocks_resumed) in the reader's
// words, with its reading (South's clock first), for a page that lists a game's events;
// null for any other event.
export function clockEventText(event) {
  const clock = event.payload && event.payload.clock;
  const times = clock ? { south: clockText(clock.south, { exact: true }), north: clockText(clock.north, { exact: true }) } : null;
  if (event.type === "clocks_paused") return _("Clocks paused at %(south)s – %(north)s", times);
  if (event.type !== "clocks_resumed") return null;
  return times ? _("Clocks resumed at %(south)s – %(north)s", times) : _("Clocks resumed");
}

// What a clock says beside its time: paused, fallen, or nothing while it runs or waits.
function noteOf(face, left) {
  if (SIDES.some((side) => left[side] <= 0)) return _("Flag fallen");
  return face.paused ? _("Clocks paused") : "";
}

const shown = new Map(); // a clocks element -> its face; the one timer ticks every running one
let timer = null;

// Draw `face` (null: no clocks) into `container`, South's and North's clocks named by
// `names`, and keep the running one ticking until the next face replaces it.
export function showClocks(container, face, names) {
  if (!face) {
    shown.delete(container);
    container.replaceChildren();
    container.hidden = true;
    return;
  }
  container.hidden = false;
  if (!container.querySelector(".clock")) build(container, names);
  for (const side of SIDES) container.querySelector(`.clock-${side} .clock-name`).textContent = names[side];
  shown.set(container, face);
  draw(container, face, Date.now());
  tickWhileRunning();
}

function build(container, names) {
  // A timer is never read aloud as it ticks (role=timer; the boards' region is polite).
  container.setAttribute("aria-live", "off");
  const clock = (side) => {
    const time = element("span", { class: "clock-time" });
    time.setAttribute("translate", "no"); // digits, not words
    return element("p", { class: `clock clock-${side}`, role: "timer", "data-side": side },
      element("span", { class: "clock-name", text: names[side] }), time);
  };
  container.replaceChildren(...SIDES.map(clock), element("p", { class: "clock-note" }));
}

function draw(container, face, now) {
  const left = remainingAt(face, now);
  for (const side of SIDES) {
    const clock = container.querySelector(`.clock-${side}`);
    clock.querySelector(".clock-time").textContent = clockText(left[side]);
    clock.dataset.running = String(face.running === side && left[side] > 0);
    clock.dataset.fallen = String(left[side] <= 0);
  }
  container.dataset.paused = String(Boolean(face.paused));
  container.querySelector(".clock-note").textContent = noteOf(face, left);
}

// A clock ticks while it runs and has time left: a fallen flag stops the timer too.
const ticking = (face, now) => face.running && remainingAt(face, now)[face.running] > 0;

function tickWhileRunning() {
  const now = Date.now();
  const running = [...shown].some(([container, face]) => container.isConnected && ticking(face, now));
  if (running && timer === null) timer = setInterval(tick, TICK_MS);
  if (!running && timer !== null) {
    clearInterval(timer);
    timer = null;
  }
}

function tick() {
  const now = Date.now();
  for (const [container, face] of shown) {
    if (!container.isConnected) shown.delete(container);
    else if (face.running) draw(container, face, now); // drawn once more as it falls
  }
  tickWhileRunning();
}
