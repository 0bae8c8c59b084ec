// The page's language: its messages come from the same gettext catalogs as the
// templates' (domain "js", recorder/web/translations), embedded by the page as JSON in
// <script id="i18n" type="application/json"> (data, not code: the CSP holds) with the
// Babel locale data the page needs (month names, the long date pattern, digits' marks).
// A message is the English text itself; a message without translation shows the English.

const embedded = typeof document === "undefined" ? null : document.getElementById("i18n");
const DATA = embedded ? JSON.parse(embedded.textContent || "{}") : {};
const MESSAGES = DATA.messages || {};
const LOCALE = DATA.locale || {};

export const LANG = DATA.lang || "en";

const fill = (text, params) => (!params ? text
  : text.replace(/%\((\w+)\)s/g, (whole, name) => (name in params ? String(params[name]) : whole)));

// _("Round %(n)s", { n: 3 }): the translation, its named placeholders filled in.
export function _(message, params) {
  const text = typeof MESSAGES[message] === "string" ? MESSAGES[message] : message;
  return fill(text, params);
}

// The plural form a count takes: the catalog's plural rule, evaluated by the server for
// 0..199 (past that the last two digits decide, as in every rule gettext knows).
function pluralIndex(n) {
  const table = DATA.plurals;
  if (!table) return n === 1 ? 0 : 1;
  return table[n < table.length ? n : 100 + (n % 100)];
}

// ngettext(singular, plural, n, { … }): the form for n; the placeholder %(count)s is n.
export function ngettext(singular, plural, n, params) {
  const forms = MESSAGES[singular];
  const index = pluralIndex(n);
  const text = Array.isArray(forms) && forms[index] ? forms[index] : (n === 1 ? singular : plural);
  return fill(text, { count: n, ...params });
}

// A whole number or a decimal with the language's separators (Babel's number symbols).
export function number(value) {
  if (typeof value !== "number" || !Number.isFinite(value)) return String(value);
  const [whole, fraction] = String(Math.abs(value)).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, LOCALE.group || ",");
  return `${value < 0 ? "-" : ""}${grouped}${fraction ? (LOCALE.decimal || ".") + fraction : ""}`;
}

// The Ethiopian calendar's months (the thirteenth, Pagume, has 5 or 6 days).
const ETHIOPIAN_MONTHS = [
  _("Meskerem"), _("Tikimt"), _("Hidar"), _("Tahsas"), _("Tir"), _("Yekatit"), _("Megabit"),
  _("Miyazia"), _("Ginbot"), _("Sene"), _("Hamle"), _("Nehase"), _("Pagume"),
];
// The Julian day number of Meskerem 1 of the year before year 1 (Amete Mihret): from it
// the leap year (Pagume of 6 days) is the last of every four, as the year before a year divisible by 4.
const ETHIOPIAN_EPOCH = 1723856;
const UNIX_EPOCH_JDN = 2440588; // of 1 January 1970

// A Gregorian date's Ethiopian one, { year, month (1..13), day }: pure day arithmetic.
export function ethiopian(year, month, day) {
  const jdn = Math.floor(Date.UTC(year, month - 1, day) / 86400000) + UNIX_EPOCH_JDN;
  const days = jdn - ETHIOPIAN_EPOCH;
  const r = ((days % 1461) + 1461) % 1461;
  const n = (r % 365) + 365 * Math.floor(r / 1460);
  return {
    year: 4 * Math.floor(days / 1461) + Math.floor(r / 365) - Math.floor(r / 1460),
    month: Math.floor(n / 30) + 1,
    day: (n % 30) + 1,
  };
}

// A CLDR date pattern ("MMMM d, y") with the month's name.
function pattern(text, year, monthName, day) {
  return text.replace(/'([^']*)'|y+|M{3,}|d+/g, (token, quoted) => {
    if (quoted !== undefined) return quoted;
    if (token[0] === "y") return String(year);
    if (token[0] === "M") return monthName;
    return String(day);
  });
}

// A date (YYYY-MM-DD, or a month YYYY-MM) in the page's language; beside it, in
// Tigrinya and Amharic, the Ethiopian calendar's date (docs/i18n.md). Anything else as it is.
export function date(text) {
  const match = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(String(text ?? ""));
  if (!match) return String(text ?? "");
  const [year, month] = [Number(match[1]), Number(match[2])];
  const months = LOCALE.months || [];
  const monthName = months[month - 1] || match[2];
  if (!match[3]) return `${monthName} ${year}`;
  const day = Number(match[3]);
  const gregorian = pattern(LOCALE.date_pattern || "MMMM d, y", year, monthName, day);
  if (!LOCALE.ethiopian) return gregorian;
  const e = ethiopian(year, month, day);
  const ethiopianDate = _("%(day)s %(month)s %(year)s E.C.", { day: e.day, month: ETHIOPIAN_MONTHS[e.month - 1], year: e.year });
  return `${gregorian} (${ethiopianDate})`;
}

// The games' words that arrive as data (a special hole's kind, the decision awaited, a
// result's way): named here so that the catalogs hold them, for _(word) to find
// (docs/glossary.md gives each in the three languages with its rule ids).
export const GAME_WORDS = [
  _("wegue"), _("walda"), _("tuz"), _("opening"), _("race"), _("lot"), _("next_round"), _("result"),
  _("resignation"), _("agreement"), _("adjudication"), _("forfeit"), _("time"), _("plain"), _("score"), _("holes"),
  _("selus"), _("gabata"), _("qelat"), _("lahemay_walida"),
];
