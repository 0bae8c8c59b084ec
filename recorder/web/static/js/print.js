// Print-ready lists of a tournament: the pairings of a round, the standings with their
// tiebreaks (or one category's), the crosstable, the prize list, a team event's board
// prizes (?list=pairings&round=N | standings[&category=CODE] | crosstable | prizes | board-prizes). The rows are cut into sheets of 40
// (print.css breaks the page after each sheet), black on white.
import { describeProblem, getJSON } from "./api.js";
import { timeControlLine } from "./clock.js";
import { _, date } from "./i18n.js";
import { categoryRule, categoryTitle, prizeName, sharedText, sharingText, totalsText } from "./prizes.js";
import { bothNames, bothNamesText, crossMark, element } from "./site.js";

const ROWS_PER_SHEET = 40;
const page = document.getElementById("print-page");
const id = page.dataset.tournamentId;
const base = `/api/tournaments/${encodeURIComponent(id)}`;
const RESULTS = { south_wins: "1–0", north_wins: "0–1", draw: "½–½", double_forfeit: "0–0" };
const TIEBREAKS = {
  buchholz: _("Buchholz"), sonneborn_berger: _("S-B"), direct_encounter: _("DE"), wins: _("Wins"),
  round_difference: _("Rounds ±"), hole_difference: _("Holes ±"),
  // C.07's codes of the recommended lists, as the tournament page abbreviates them
  "BH/C1": _("BH/C1"), BH: _("BH"), SB: _("SB"), PS: _("PS"), DE: _("DE"), WIN: _("WIN"), BWG: _("BWG"), KS: _("KS"), LOTS: _("LOTS"),
};

function points(value) {
  if (value === null || value === undefined) return "";
  const whole = Math.floor(value);
  const half = value - whole >= 0.5 ? "½" : "";
  return whole === 0 && half ? half : `${whole}${half}`;
}

function chunks(rows) {
  const sheets = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_SHEET) sheets.push(rows.slice(i, i + ROWS_PER_SHEET));
  return sheets.length ? sheets : [[]];
}

function sheet(t, title, head, rows, index, count, extra) {
  const control = timeControlLine(t.time_control) || null;
  const meta = [t.site, date(t.start_date), control, count > 1 ? _("sheet %(n)s of %(count)s", { n: index + 1, count }) : null].filter(Boolean).join(" · ");
  return element("section", { class: "print-sheet", "data-sheet": index + 1 },
    element("header", {}, element("h1", { text: `${t.name} — ${title}` }), element("p", { class: "print-meta", text: meta })),
    element("table", {},
      element("thead", {}, element("tr", {}, ...head.map(([label, cls]) => element("th", { class: cls, text: label })))),
      element("tbody", {}, ...rows)),
    extra || null);
}

function cell(text, cls) {
  return element("td", { class: cls, text: text === null || text === undefined ? "" : String(text) });
}

function sheets(t, title, head, rows, last) {
  const cut = chunks(rows);
  return cut.map((part, i) => sheet(t, title, head, part, i, cut.length, i === cut.length - 1 ? last : null));
}

function pairingSheets(t, standings, roundNumber) {
  const round = roundNumber ? t.rounds.find((r) => r.round === roundNumber) : t.rounds[t.rounds.length - 1];
  if (!round) throw new Error(roundNumber ? _("Round %(n)s is not paired.", { n: roundNumber }) : _("No round is paired yet."));
  const score = new Map(standings.standings.map((s) => [s.number, s.points]));
  const rows = round.boards.map((b) => element("tr", { "data-board": b.board },
    cell(b.board, "num"), cell(b.south.number, "num"), element("td", {}, bothNames(b.south.name, b.south.name_geez)), cell(points(score.get(b.south.number)), "num"),
    cell(RESULTS[b.result] || "", "result"),
    cell(points(score.get(b.north.number)), "num"), element("td", {}, bothNames(b.north.name, b.north.name_geez)), cell(b.north.number, "num")));
  const byes = round.byes.length
    ? element("p", { class: "print-byes", text: _("Byes: %(byes)s", { byes: round.byes.map((b) => `${bothNamesText(b.name, b.name_geez)} (${points(b.points)})`).join(", ") }) })
    : null;
  const head = [[_("Bd"), "num"], [_("No"), "num"], [_("South (White)")], [_("Pts"), "num"], [_("Result")], [_("Pts"), "num"], [_("North (Black)")], [_("No"), "num"]];
  return sheets(t, _("Round %(n)s pairings", { n: round.round }), head, rows, byes);
}

// A player's name in both scripts where the registry has the Ge'ez (dom.js, bothNames); a
// withdrawn player is marked on paper as on the screen.
function nameCell(t, number, name, geez) {
  const withdrawn = t.players.some((p) => p.number === number && p.withdrawn);
  return element("td", {}, bothNames(name, geez), withdrawn ? _(" (withdrawn)") : null);
}

function standingSheets(t, standings) {
  const order = standings.tiebreaks;
  const rows = standings.standings.map((s) => element("tr", { "data-number": s.number },
    cell(s.rank, "num"), nameCell(t, s.number, s.name, s.name_geez), cell(s.federation), cell(s.rating, "num"), cell(points(s.points), "num"),
    ...order.map((name) => cell(s.tiebreaks[name], "num"))));
  const head = [[_("Rank"), "num"], [_("Name")], [_("Fed")], [_("Rating"), "num"], [_("Pts"), "num"], ...order.map((n) => [TIEBREAKS[n] || n, "num"])];
  const seed = standings.lots_seed ? [_("lots drawn with the seed %(seed)s", { seed: standings.lots_seed })] : [];
  const named = order.map((n) => TIEBREAKS[n] || n).join(" · ");
  const list = element("p", { class: "print-tiebreaks", text: [_("Tie-breaks, in order:"), named, ...seed].join(" ") });
  return sheets(t, _("Standings after round %(n)s", { n: standings.rounds_played }), head, rows, list);
}

// One category's players, their place in it beside the overall rank.
function categorySheets(t, found) {
  const order = found.tiebreaks;
  const rows = found.standings.map((s) => element("tr", { "data-number": s.number },
    cell(s.rank, "num"), cell(s.overall_rank, "num"), nameCell(t, s.number, s.name, s.name_geez), cell(s.federation), cell(s.rating, "num"),
    cell(points(s.points), "num"), ...order.map((name) => cell(s.tiebreaks[name], "num"))));
  const head = [[_("Place"), "num"], [_("Rank"), "num"], [_("Name")], [_("Fed")], [_("Rating"), "num"], [_("Pts"), "num"],
    ...order.map((n) => [TIEBREAKS[n] || n, "num"])];
  const title = _("%(category)s: standings after round %(n)s", { category: categoryTitle(found.category), n: found.rounds_played });
  const rule = element("p", { class: "print-byes", text: categoryRule(found.category) });
  return sheets(t, title, head, rows, rule);
}

// Who is paid what, then how ties share and the money offered and paid.
function prizeSheets(t, prizes) {
  const currency = prizes.currency ? ` ${prizes.currency}` : "";
  const rows = prizes.awards.map((a) => element("tr", { "data-number": a.number },
    cell(a.rank, "num"), nameCell(t, a.number, a.name, a.name_geez), cell(prizeName(prizes.categories, a)), cell(sharedText(a)),
    element("td", { class: "num" }, String(a.amount), element("span", { translate: "no", text: currency }))));
  const head = [[_("Rank"), "num"], [_("Name")], [_("Prize")], [_("Shared")], [_("Amount"), "num"]];
  const notes = element("p", { class: "print-byes", text: `${sharingText(prizes)} ${totalsText(prizes)}` });
  return sheets(t, _("Prize list"), head, rows, notes);
}

// A team event's board prizes, board 1 first: on each board its players in prize order (the
// API's), those short of the games a prize needs after them, unranked.
function boardPrizeSheets(t, found) {
  const geez = new Map(t.players.map((p) => [p.number, p.name_geez]));
  const rows = found.boards.flatMap((b) => b.players.map((p) => element("tr", { "data-board": b.board, "data-number": p.number, "data-qualified": String(p.qualified) },
    cell(b.board, "num"), cell(p.qualified ? p.rank : "–", "num"), nameCell(t, p.number, p.name, geez.get(p.number)),
    element("td", {}, bothNames(p.team.name, p.team.name_geez)), cell(p.games, "num"), cell(points(p.points), "num"),
    cell(`${p.percentage}%`, "num"), cell(p.qualified ? "" : _("fewer than %(count)s games", { count: p.minimum })))));
  const head = [[_("Bd"), "num"], [_("Rank"), "num"], [_("Name")], [_("Team")], [_("Games"), "num"], [_("Pts"), "num"], [_("Score"), "num"], [""]];
  const rule = element("p", { class: "print-byes", text: [
    _("A player competes on the board he played once he has played seven tenths of his team's matches there (a reserve half); the qualified rank by percentage score, then by games played. A forfeit or an empty board is no game."),
    found.status === "finished" ? _("Final: the tournament is finished.") : _("Provisional: by the standings as they are now."),
  ].join(" ") });
  return sheets(t, _("Board prizes"), head, rows, rule);
}

// As on the screen: a round robin is the square (row against column, by place), a Swiss
// gives each round's opponent, seat and result ("46s1").
function crosstableSheets(t, crosstable) {
  const square = crosstable.format === "round_robin" || crosstable.format === "double_round_robin";
  const columns = square ? crosstable.rows.map((r) => r.place) : roundNumbers(crosstable.rows);
  const rows = crosstable.rows.map((r) => element("tr", { "data-number": r.number },
    cell(r.place, "num"), nameCell(t, r.number, r.name, r.name_geez),
    ...(square ? squareCells(r, columns) : r.cells.map((c) => cell(crossMark(c), "num"))), cell(points(r.points), "num")));
  const labels = square ? columns.map((place) => [String(place), "num"]) : columns.map((n) => [_("R%(n)s", { n }), "num"]);
  return sheets(t, _("Crosstable"), [[_("Pl"), "num"], [_("Name")], ...labels, [_("Pts"), "num"]], rows);
}

function roundNumbers(rows) {
  const rounds = Math.max(0, ...rows.map((r) => r.cells.length));
  return Array.from({ length: rounds }, (unused, i) => i + 1);
}

function squareCells(row, places) {
  return places.map((place) => (place === row.place ? cell("×", "num")
    : cell(row.cells.filter((c) => c.opponent_place === place).map((c) => c.mark).join(" "), "num")));
}

async function load() {
  const [{ data: t }, { data: standings }] = await Promise.all([getJSON(base), getJSON(`${base}/standings`)]);
  const list = page.dataset.list;
  const category = page.dataset.category;
  let made;
  if (list === "standings" && category) {
    made = categorySheets(t, (await getJSON(`${base}/categories/${encodeURIComponent(category)}/standings`)).data);
  } else if (list === "standings") made = standingSheets(t, standings);
  else if (list === "prizes") made = prizeSheets(t, (await getJSON(`${base}/prizes`)).data);
  else if (list === "board-prizes") made = boardPrizeSheets(t, (await getJSON(`${base}/board-prizes`)).data);
  else if (list === "crosstable") made = crosstableSheets(t, (await getJSON(`${base}/crosstable`)).data);
  else made = pairingSheets(t, standings, Number(page.dataset.round) || null);
  const lists = { pairings: _("Pairings"), standings: _("Standings"), crosstable: _("Crosstable"), prizes: _("Prize list"), "board-prizes": _("Board prizes") };
  document.title = `${t.name} · ${lists[list] || list}`;
  page.replaceChildren(...made);
}

load()
  .then(() => { page.dataset.ready = "true"; })
  .catch((error) => {
    document.getElementById("print-status").textContent = error.message || describeProblem(error);
    page.dataset.ready = "error";
  });
