// The board drawn as a board: rows in the spec's orientation (GEN-3, GEN-4: the top row
// is row 3 on 3×6 and row 2 on 2×6, columns a–f from South's left), round holes with
// their seeds and counts, owners (GEN-6, GEN-7), special holes and their owners
// (GEN-8), the stores, and whose turn. Only the holes in `sowable` are buttons that
// can be pressed; every other hole is disabled, so an illegal sowing cannot be tapped.
import { element, PLAYER } from "./dom.js";
import { _, ngettext } from "./i18n.js";

const COLUMNS = "abcdef";
const MAX_PEBBLES = 24;
const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));

export function rowsOf(variant) {
  return variant.board.rows;
}

// Hole names row by row as drawn, top row first.
export function drawnRows(rows) {
  const lines = [];
  for (let row = rows; row >= 1; row -= 1) lines.push(Array.from(COLUMNS, (c) => `${c}${row}`));
  return lines;
}

export function ownerOf(variant, state, hole) {
  return (state.owners && state.owners[hole]) || variant.default_owners[hole];
}

// Seeds as pebbles on a sunflower spiral: deterministic, so a redraw does not shuffle them.
function pebbles(count) {
  const box = element("span", { class: "pebbles", "aria-hidden": "true" });
  const shown = Math.min(count, MAX_PEBBLES);
  for (let i = 0; i < shown; i += 1) {
    // Centred above the count, which sits low in the cup so that a few seeds stay visible.
    const radius = 30 * Math.sqrt((i + 0.5) / Math.max(shown, 6));
    const angle = i * GOLDEN_ANGLE - Math.PI / 2;
    const pebble = element("span", { class: `pebble tone-${i % 3}` });
    pebble.style.left = `${50 + radius * Math.cos(angle)}%`;
    pebble.style.top = `${40 + radius * Math.sin(angle)}%`;
    box.append(pebble);
  }
  return box;
}

// A store is a long bar on a phone and a tall one on a wide screen: its seeds are a heap
// of small pebbles of a fixed size that wraps within the frame, never scaled to its width.
function heap(count) {
  const box = element("span", { class: "pebbles heap", "aria-hidden": "true" });
  for (let i = 0; i < Math.min(count, MAX_PEBBLES); i += 1) box.append(element("span", { class: `pebble tone-${i % 3}` }));
  return box;
}

// The hole the last press (finger, pen or mouse) went down on. A status line above the
// board can change on its own (the network drops, the rules finish loading, the queue is
// sent) and move the board while a finger is down; the browser then clicks whatever is
// under the finger when it lifts. A click sows only the hole that was pressed, so a
// board that moved costs a tap, never a wrong move. A click from the keyboard has no
// press (its detail is 0) and sows the focused hole.
let pressedHole = null;
document.addEventListener("pointerdown", (event) => {
  const hole = event.target instanceof Element ? event.target.closest(".board [data-hole]") : null;
  pressedHole = hole ? hole.dataset.hole : null;
}, true);

const pressedHere = (event, hole) => event.detail === 0 || pressedHole === hole;

function holeLabel(hole, count, owner, special) {
  let text = ngettext("%(hole)s: %(count)s seed, %(player)s's hole", "%(hole)s: %(count)s seeds, %(player)s's hole", count, { hole, player: PLAYER[owner] });
  if (special) text += _(", %(special)s of %(player)s", { special: _(special.kind), player: PLAYER[special.owner] });
  return text;
}

function holeButton(variant, state, hole, options) {
  const count = state.holes[hole];
  const owner = ownerOf(variant, state, hole);
  const special = state.specials ? state.specials[hole] : undefined;
  const sowable = options.sowable.has(hole);
  const queued = (options.queued || []).filter(([name]) => name === hole).map(([, number]) => number);
  const button = element("button", {
    type: "button",
    class: ["hole", `owner-${owner}`, sowable && "sowable", hole === options.lastHole && "last", queued.length && "queued",
      owner !== variant.default_owners[hole] && "changed", special && `special special-${special.owner}`]
      .filter(Boolean).join(" "),
    disabled: !sowable,
    "data-hole": hole,
    "data-count": count,
    "data-owner": owner,
    "data-special": special ? special.kind : null,
    "data-special-owner": special ? special.owner : null,
    "aria-label": holeLabel(hole, count, owner, special) + (sowable ? _(". Press to sow.") : ""),
    title: holeLabel(hole, count, owner, special),
  });
  const cup = element("span", { class: "cup" }, pebbles(count), element("span", { class: "count", text: String(count) }));
  button.append(cup, element("span", { class: "coord", text: hole }));
  if (special) {
    button.append(element("span", { class: "badge", text: _(special.kind) + ` ${PLAYER[special.owner][0]}` }));
  }
  if (queued.length) {
    button.dataset.queued = queued.join(",");
    button.append(element("span", { class: "queued-mark", text: queued.join(" "), title: _("pending, not yet recorded") }));
  }
  if (sowable) button.addEventListener("click", (event) => pressedHere(event, hole) && options.onSow(hole));
  return button;
}

function store(state, player, names) {
  const count = state.stores[player];
  return element("div", {
    class: `store store-${player}`,
    "data-store": player,
    "data-count": count,
    "aria-label": _("%(player)s's store: %(count)s seeds", { player: PLAYER[player], count }),
  },
  element("span", { class: "store-name", text: `${PLAYER[player]}` }),
  element("span", { class: "cup" }, heap(count), element("span", { class: "count", text: String(count) })));
}

function side(state, player, names) {
  const toMove = state.to_move === player;
  return element("div", { class: `side side-${player}${toMove ? " to-move" : ""}`, "data-side": player },
    element("span", { class: `player-chip chip-${player}`, text: PLAYER[player] }),
    element("span", { class: "player-name", text: names[player] || "" }),
    toMove ? element("span", { class: "turn", text: state.awaiting ? _("decides: %(decision)s", { decision: _(state.awaiting) }) : _("to move") }) : null);
}

export function renderBoard(container, variant, state, options) {
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.hole : null;
  const rows = rowsOf(variant);
  const pits = element("div", { class: "pits", role: "group", "aria-label": _("Holes") });
  for (const line of drawnRows(rows)) {
    for (const hole of line) pits.append(holeButton(variant, state, hole, options));
  }
  const wood = element("div", { class: "wood" }, store(state, "north", options.names), pits, store(state, "south", options.names));
  const board = element("div", {
    class: `board rows-${rows}`,
    "data-variant": variant.name,
    "data-at": options.at,
    "data-version": options.version,
    "data-to-move": state.to_move || "",
    "data-awaiting": state.awaiting || "",
    "data-interactive": options.sowable.size > 0 ? "true" : "false",
  }, side(state, "north", options.names), wood, side(state, "south", options.names), legend(variant));
  container.replaceChildren(board);
  restoreFocus(board, focused);
}

function legend(variant) {
  const items = [
    element("span", { class: "key key-south", text: _("South's hole") }),
    element("span", { class: "key key-north", text: _("North's hole") }),
  ];
  if (variant.special_kind) items.push(element("span", { class: "key key-special", text: _("%(special)s (ringed, owner's colour)", { special: _(variant.special_kind) }) }));
  items.push(element("span", { class: "key key-changed", text: _("changed hands") }));
  items.push(element("span", { class: "key key-last", text: _("last hole sown") }));
  return element("p", { class: "legend" }, ...items);
}

// Keyboard users keep their place: after a redraw, focus the same hole, else the first sowable one.
function restoreFocus(board, hole) {
  if (!hole) return;
  const same = board.querySelector(`[data-hole="${hole}"]:not([disabled])`);
  const first = board.querySelector(".hole:not([disabled])");
  (same || first || board).focus?.();
}
