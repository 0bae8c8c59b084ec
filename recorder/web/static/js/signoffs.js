// The players' word on a finished board game's record (docs/tournaments.md, "Confirmation
// at the board"): each player confirms the result with his own badge (its QR code scanned
// into the field, or its code typed), or disputes moves or the result and says why; the
// arbiter decides an open dispute. Each is an event of the game (POST …/confirmations,
// …/disputes, …/decisions). A player's code is sent with his request only: this device
// keeps it nowhere, and stays signed in as it was.
import { describeProblem, getJSON, idempotencyKey, post, Problem, request } from "./api.js";
import { _ } from "./i18n.js";
import { element, PLAYER } from "./site.js";

const byId = (id) => document.getElementById(id);

// The disputes still open in a tournament (GET …/disputes), as list items for its arbiter.
export function openDisputeItems(disputes) {
  const items = disputes.map((d) => element("li", { "data-game": d.game_id },
    element("a", { href: `/games/${encodeURIComponent(d.game_id)}`, text: _("Round %(round)s, board %(board)s", d) }), " ",
    element("span", { text: _("%(player)s disputes: %(reason)s", { player: PLAYER[d.side], reason: d.reason }) })));
  return items.length ? items : [element("li", { class: "hint", text: _("No dispute is open.") })];
}
const OUTCOMES = { upheld: _("upheld, the record unchanged"), corrected: _("corrected") };

// A badge's QR code holds its sign-in address (…/sign-in#token=…); a scanner types it in
// as a keyboard would. A code typed by hand is the token itself.
export function codeOf(text) {
  const value = text.trim();
  const found = /[#&?]token=([^&#\s]+)/.exec(value);
  return found ? decodeURIComponent(found[1]) : value;
}

async function postAs(code, url, body) {
  const headers = { Authorization: `Bearer ${code}`, "Content-Type": "application/json", "Idempotency-Key": idempotencyKey() };
  const response = await request(url, { method: "POST", headers, body: JSON.stringify(body) });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Problem(response.status, answer);
  return answer;
}

export class Signoffs {
  constructor(gameId, { reload, canDecide }) {
    this.base = `/api/games/${encodeURIComponent(gameId)}`;
    this.reload = reload;
    this.canDecide = canDecide;
    this.version = null;
  }

  wire() {
    byId("signoff-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.send("confirmations", {});
    });
    byId("dispute-send").addEventListener("click", () => {
      const moves = Array.from(byId("dispute-moves").selectedOptions, (option) => Number(option.value));
      this.send("disputes", { moves, result: byId("dispute-result").checked, reason: byId("dispute-reason").value });
    });
  }

  // Shown once a tournament board's game is over: what each player has said, and the form.
  async show(game, moves, notation) {
    const section = byId("signoffs");
    section.hidden = !game.metadata.tournament_id || game.status !== "finished";
    if (section.hidden) return;
    this.version = game.version;
    const { data } = await getJSON(`${this.base}/signoffs`);
    const said = (side) => (data.confirmed_by.includes(side) ? _("%(player)s: confirmed", { player: PLAYER[side] })
      : _("%(player)s: not yet confirmed", { player: PLAYER[side] }));
    byId("signoffs-status").textContent = data.confirmed ? _("Both players confirmed the result.")
      : ["south", "north"].map(said).join(" · ");
    section.dataset.confirmed = String(data.confirmed);
    const label = (seq) => notation.get(seq) || `#${seq}`;
    byId("dispute-moves").replaceChildren(...moves.filter((m) => m.type !== "result_recorded")
      .map((m) => element("option", { value: String(m.seq), text: label(m.seq) })));
    byId("signoffs-disputes").replaceChildren(...data.disputes.map((d) => this.disputeItem(d, label)));
  }

  disputeItem(dispute, label) {
    const what = [...dispute.moves.map(label), ...(dispute.result ? [_("the result")] : [])].join(", ");
    const text = _("%(player)s disputes %(what)s: %(reason)s", { player: PLAYER[dispute.side], what, reason: dispute.reason });
    const decided = dispute.decision
      ? _("Decided: %(outcome)s — %(reason)s", { outcome: OUTCOMES[dispute.decision.outcome], reason: dispute.decision.reason })
      : _("Open: the arbiter decides it");
    const item = element("li", { "data-seq": String(dispute.seq), "data-open": String(dispute.open) },
      element("p", { text }), element("p", { class: "hint", text: decided }));
    if (dispute.open && this.canDecide()) item.append(this.decisionForm(dispute));
    return item;
  }

  // The arbiter's decision: upheld with the record unchanged, or corrected by the
  // retraction and the moves recorded since (Undo and the result form, above).
  decisionForm(dispute) {
    const outcome = element("select", { class: "decision-outcome" },
      ...Object.entries(OUTCOMES).map(([value, text]) => element("option", { value, text })));
    const reason = element("input", { class: "decision-reason", maxLength: 2000, required: true });
    const form = element("form", { class: "decision-form" },
      element("label", {}, _("Decision"), " ", outcome), element("label", {}, _("Reason"), " ", reason),
      element("button", { type: "submit", text: _("Record the decision") }));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const body = { dispute: dispute.seq, outcome: outcome.value, reason: reason.value, expected_version: this.version };
      await this.settle(() => post(`${this.base}/decisions`, body));
    });
    return form;
  }

  async send(what, body) {
    const code = codeOf(byId("player-code").value);
    if (!code) {
      this.say(_("Scan your badge, or type its code, first."), true);
      return;
    }
    const sent = await this.settle(() => postAs(code, `${this.base}/${what}`, { ...body, expected_version: this.version }));
    if (sent) {
      byId("signoff-form").reset();
      byId("dispute-panel").open = false;
    }
  }

  // Said once the page shows the game again: the next player signs the version it shows.
  async settle(write) {
    this.say("", false);
    try {
      await write();
    } catch (error) {
      this.say(describeProblem(error), true);
      return false;
    }
    await this.reload().catch(() => {}); // recorded: a page that cannot read it again still says so
    this.say(_("Recorded."), false);
    return true;
  }

  say(text, failed) {
    const line = byId("signoff-message");
    line.textContent = text;
    line.className = failed ? "error" : "hint";
  }
}
