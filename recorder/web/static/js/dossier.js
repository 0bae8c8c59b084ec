// The appeal dossier to print (/games/{id}/dossier?moves=…, docs/auditing.md): what the
// signed file GET /api/games/{id}/dossier holds, as this reader may see it — the players,
// every event with its hash, the disputed moves' traces with their rule ids, the clock
// readings, the round's pairing check, the players' confirmations, disputes and the
// decisions on them, and the checkpoint — and the file itself to save,
// for `recorder verify --dossier`. The page shows the file's own bytes: nothing is
// fetched twice, so what is printed is what is signed.
import { describeProblem, Problem, request } from "./api.js";
import { _ } from "./i18n.js";
import { element, PLAYER } from "./site.js";

const page = document.getElementById("dossier-page");
const sheets = document.getElementById("sheets");
const RESULT_WORDS = { south_wins: _("South won"), north_wins: _("North won"), draw: _("Draw") };

// Values that are data, not words: ids, event types, rule ids, hashes, times.
const code = (text) => element("code", { translate: "no", text: String(text) });
const cell = (value) => element("td", {}, value instanceof Node ? value : code(value));

function table(caption, headings, rows) {
  return element("table", { class: "dossier-table" },
    element("caption", { text: caption }),
    element("thead", {}, element("tr", {}, ...headings.map((text) => element("th", { text })))),
    element("tbody", {}, ...rows.map((row) => element("tr", {}, ...row.map(cell)))));
}

function eventsTable(events) {
  return table(_("Every event, as stored"), [_("Event number"), _("Type"), _("Recorded at"), _("Recorded by"), _("Hash")],
    events.map((e) => [e.seq, e.type, e.recorded_at, e.recorded_by || "", e.hash.slice(0, 16)]));
}

function tracesSection(traces) {
  if (!traces.length) return element("p", { class: "hint", text: _("No move was named as disputed.") });
  return element("div", {}, ...traces.map((trace) => element("section", { class: "dossier-trace", "data-seq": trace.seq },
    element("h3", { text: _("Event %(seq)s", { seq: trace.seq }) }),
    element("ol", {}, ...trace.steps.map((step) => element("li", {}, code(step.rule), " ", code(step.step)))))));
}

function clocksSection(readings) {
  if (!readings.length) return element("p", { class: "hint", text: _("The events carry no clock reading.") });
  return table(_("Clock readings"), [_("Event number"), PLAYER.south, PLAYER.north],
    readings.map((r) => [r.seq, r.clock.south, r.clock.north]));
}

function pairingSection(check) {
  if (!check || !check.round) return element("p", { class: "hint", text: _("Not a tournament board: no pairing to check.") });
  return element("p", {}, _("Round %(round)s, paired by the rules:", { round: check.round.round }), " ", code(check.round.status));
}

// The players' word on the record, as the dossier's events give it (docs/tournaments.md).
const OUTCOMES = { upheld: _("upheld, the record unchanged"), corrected: _("corrected") };

function signoffsSection(signoffs) {
  if (!signoffs || (!signoffs.confirmations.length && !signoffs.disputes.length)) {
    return element("p", { class: "hint", text: _("No player has confirmed or disputed the record.") });
  }
  const confirmed = signoffs.confirmations.map((c) => element("li", { "data-seq": c.seq },
    _("%(player)s confirmed the record up to event %(upto)s", { player: PLAYER[c.side], upto: c.upto })));
  const disputed = signoffs.disputes.map((d) => {
    const what = [...d.moves.map((seq) => _("Event %(seq)s", { seq })), ...(d.result ? [_("the result")] : [])].join(", ");
    const decided = d.decision
      ? _("Decided: %(outcome)s — %(reason)s", { outcome: OUTCOMES[d.decision.outcome], reason: d.decision.reason })
      : _("Open: the arbiter decides it");
    return element("li", { "data-seq": d.seq },
      _("%(player)s disputes %(what)s: %(reason)s", { player: PLAYER[d.side], what, reason: d.reason }), " — ", decided);
  });
  return element("ul", { class: "dossier-signoffs" }, ...confirmed, ...disputed);
}

function signedSection(body, signatureLine) {
  const checkpoint = body.checkpoint
    ? element("p", { class: "checkpoint-text", translate: "no", text: body.checkpoint.text })
    : element("p", { class: "hint", text: _("No checkpoint yet: a game is signed once it is finished.") });
  return element("section", {},
    element("h2", { text: _("Signatures") }),
    element("p", {}, _("Signed by the service's key:"), " ", code(body.key.key_id)),
    element("p", { class: "dossier-signature" }, code(signatureLine)),
    checkpoint);
}

function sheet(gameId, body, signatureLine) {
  const setup = body.setup;
  const result = body.final?.result ? RESULT_WORDS[body.final.result] : _("The game is not finished.");
  return element("article", { class: "sheet dossier", "data-game-id": gameId },
    element("h1", { text: _("Appeal dossier") }),
    element("p", { class: "sheet-game-id" }, _("Game %(id)s", { id: gameId }), " ", code(setup.variant)),
    element("p", {}, `${PLAYER.south}: ${setup.south} · ${PLAYER.north}: ${setup.north}`),
    element("p", { id: "dossier-result", text: result }),
    element("h2", { text: _("Disputed moves") }), tracesSection(body.traces),
    element("h2", { text: _("Clocks") }), clocksSection(body.clock_readings),
    element("h2", { text: _("Pairing check") }), pairingSection(body.pairing_check),
    element("h2", { text: _("Confirmations, disputes and decisions") }), signoffsSection(body.signoffs),
    signedSection(body, signatureLine),
    element("h2", { text: _("Record") }), eventsTable(body.events));
}

async function show(gameId) {
  const url = `/api/games/${encodeURIComponent(gameId)}/dossier${window.location.search}`;
  const response = await request(url);
  if (!response.ok) throw new Problem(response.status, await response.json().catch(() => ({})));
  const bytes = await response.arrayBuffer();
  const [, bodyLine, signatureLine] = new TextDecoder().decode(bytes).split("\n");
  sheets.replaceChildren(sheet(gameId, JSON.parse(bodyLine), signatureLine));
  const link = document.getElementById("dossier-file");
  link.href = URL.createObjectURL(new Blob([bytes], { type: "application/vnd.mancala-dossier" }));
  link.download = `${gameId}.dossier`;
  link.hidden = false;
  document.title = _("Appeal dossier: game %(id)s", { id: gameId });
}

document.getElementById("print").addEventListener("click", () => window.print());
show(page.dataset.gameId)
  .then(() => page.setAttribute("data-ready", "true"))
  .catch((error) => sheets.replaceChildren(element("p", { class: "error", text: _("Could not load: %(problem)s", { problem: describeProblem(error) }) })));
