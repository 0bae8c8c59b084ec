import { _ } from "./i18n.js";

// Building elements and naming players: no side effects, so the embedded boards
// (embed.js) can draw without what every full page does on load (site.js).

export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("data-") || name.startsWith("aria-") || name === "role") node.setAttribute(name, value);
    else node[name] = value;
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

// The children of ``parent`` made ``nodes``, an element that would be drawn the same
// (isEqualNode: the same attributes and text) left in place: a live update redrawing a
// list must not swap the button under a finger for its copy, since a press on one and a
// lift on the other make no click and the tap is lost.
export function replaceChanged(parent, nodes) {
  nodes.forEach((node, index) => {
    const old = parent.children[index];
    if (!old) parent.append(node);
    else if (!old.isEqualNode(node)) old.replaceWith(node);
  });
  while (parent.children.length > nodes.length) parent.lastElementChild.remove();
}

// Who recorded an event, as a page may show it: a control, format (bidi, zero-width) or
// line-breaking character is shown as its code point, never acted on (docs/security.md).
export function visible(name) {
  return String(name).replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu,
    (c) => `<U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}>`);
}

export const PLAYER = { south: _("South"), north: _("North") };

// A seat in a crosstable's cell is the first letter of its word in the reader's language
// (s, n; ደ, ሰ), so no Latin letter stands in a Tigrinya or Amharic table.
export const SEAT = { south: PLAYER.south.charAt(0).toLowerCase(), north: PLAYER.north.charAt(0).toLowerCase() };

// A Swiss crosstable's cell, on screen and on paper alike: the opponent's place, the seat
// and the result ("8s1"), a bye with its points, "–" for a round not played.
export function crossMark(cell) {
  if (cell.kind === "bye") return _("bye") + cell.mark;
  if (cell.kind === "absent") return "–";
  return `${cell.opponent_place}${SEAT[cell.colour]}${cell.mark}`;
}

// A registry player's name in both scripts (docs/web.md, "Players' names in both scripts"): the Latin name,
// then the Ge'ez one where the registry has it; a player without one reads as his name alone.
// Inline, "Abeba Tesfay (ኣበባ ተስፋይ)", in tables, lists and titles; `lines` puts the Ge'ez
// under the Latin, where a name stands alone in a field (a scoresheet's players). The
// registry does not say whether a Ge'ez name is Tigrinya or Amharic: on a page in either it
// is taken as the page's language; elsewhere it is marked of no known language (lang="").
const GEEZ_PAGE_LANGUAGES = new Set(["ti", "am"]);

// The `lang` a registry player's Ge'ez name is marked with: none (the page's) or "".
export function geezNameLang() {
  return GEEZ_PAGE_LANGUAGES.has(document.documentElement.lang) ? null : "";
}

export function bothNames(name, geez, { lines = false } = {}) {
  if (!geez) return name;
  const written = element("span", { class: "name-geez geez", lang: geezNameLang(), text: geez });
  return lines
    ? element("span", { class: "both-names lines" }, name, written)
    : element("span", { class: "both-names" }, `${name} (`, written, ")");
}

// The same as plain text, where no element can go (a page's title, a sentence's name).
export function bothNamesText(name, geez) {
  return geez ? `${name} (${geez})` : name;
}
