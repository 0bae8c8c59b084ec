// A tournament's categories and prize list in words, for its page and its printed lists:
// a category's title (the organiser's name, else its code) and what decides it, each
// prize's list and place, a shared prize's pool, an amount with its currency.
import { _, ngettext } from "./i18n.js";

// What decides a category, as the API stores it (recorder/tournaments/categories.py).
export function categoryRule(c) {
  if (c.kind === "age" && c.under != null) return _("under %(age)s: born in %(year)s or later", { age: c.under, year: c.born_from });
  if (c.kind === "age") return _("%(age)s and over: born in %(year)s or earlier", { age: c.at_least, year: c.born_until });
  if (c.kind === "sex") return c.sex === "w" ? _("women") : _("men");
  if (c.kind === "region") return _("federation or club: %(places)s", { places: [...(c.federations || []), ...(c.clubs || [])].join(", ") });
  if (c.min != null && c.max != null) return _("rating %(min)s to %(max)s", { min: c.min, max: c.max });
  return c.min != null ? _("rating %(min)s or more", { min: c.min }) : _("rating up to %(max)s", { max: c.max });
}

export function categoryTitle(c) {
  return c.name || c.code;
}

// The list a prize is paid from: the overall list, or a category's by its title.
export function listName(categories, code) {
  if (code == null) return _("Overall");
  const found = categories.find((c) => c.code === code);
  return found ? categoryTitle(found) : code;
}

export function prizeName(categories, award) {
  const list = listName(categories, award.category);
  if (award.place == null) return _("%(list)s: joined the tie", { list });
  return _("%(list)s, place %(place)s", { list, place: award.place });
}

export function sharedText(award) {
  if (!award.shared_places.length) return "";
  return ngettext("places %(places)s, shared by %(count)s player", "places %(places)s, shared by %(count)s players",
    award.sharers, { places: award.shared_places.join("–") });
}

export function sharingText(prizes) {
  const rule = prizes.sharing === "hort"
    ? _("Players tied on points share their prizes by the Hort system: half equally, half by the tie-break order.")
    : _("Prizes are not shared: the tie-breaks decide between tied players.");
  const state = prizes.final ? _("Final: the tournament is finished.") : _("Provisional: by the standings as they are now.");
  return `${rule} ${state}`;
}

export function totalsText(prizes) {
  return _("Offered: %(offered)s. Paid: %(paid)s.", { offered: prizes.offered, paid: prizes.paid });
}
