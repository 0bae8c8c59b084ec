// Recording without the network. A command the server cannot be reached for is queued
// on this device (queue.js) and shown as pending. With the rules loaded on the device
// (rules.js: the service's own Python rules in Pyodide) the page shows the position after
// the queue, offers only its legal holes and asks for the decision due; without them it
// shows the last recorded position and any hole may be tapped, and it says so. When the
// network returns the queue is sent in order, each command with its own Idempotency-Key
// and If-Match, so nothing is stored twice. If another device recorded first (409), the
// queued moves are shown beside the server's record and the arbiter chooses: discard
// them, or withdraw the other moves (one retraction) and record the queued ones after
// it. A queued move the server refuses stops the queue where it stands, named, with its
// reason, and the arbiter chooses: discard it and the moves after it, discard only it,
// or try again; nothing behind it is dropped unasked.
import { Conflict, describeProblem, getJSON, Offline, sendCommand } from "./api.js";
import { _, ngettext } from "./i18n.js";
import * as queue from "./queue.js";
import { commandText, MOVE_TYPES, moveText } from "./record.js";
import { element, visible } from "./site.js";

// Every sentence about the queue and the rules on this device, in one place; each one
// whole in the catalog (a count takes the language's plural through ngettext).
export const SAY = {
  rulesStandby: _("The rules are kept on this device: if the network drops, they check the moves recorded offline."),
  rulesLoading: _("Starting the rules on this device for offline recording…"),
  rulesReady: _("The rules run on this device: offline, the board shows the position after the queued moves."),
  rulesMissing: _("The rules are not loaded on this device: offline, the board stays at the last recorded position, any hole can be tapped, and the server checks the moves when the network returns."),
  pendingWithRules: _("Kept on this device and sent in order when the network returns. The board shows the position after them."),
  pendingWithoutRules: _("Kept on this device and sent in order when the network returns. The board shows the last recorded position."),
  promptWithoutRules: _("Moves are pending: tap the next hole played. The board shows the last recorded position."),
  promptRulesStarting: _("Moves are pending: the next hole can be tapped once the rules run on this device (a few seconds)."),
  queuedAfter: (count) => ngettext("After the %(count)s move queued on this device.", "After the %(count)s moves queued on this device.", count),
  offline: (count) => (count
    ? ngettext("Offline: moves are kept on this device (%(count)s pending)", "Offline: moves are kept on this device (%(count)s pending)", count)
    : _("Offline: moves are kept on this device")),
  online: _("Online: every move is recorded"),
  sending: (count) => ngettext("Online: sending %(count)s move pending…", "Online: sending %(count)s moves pending…", count),
  waiting: (count) => ngettext("Online: %(count)s move waits for your choice below", "Online: %(count)s moves wait for your choice below", count),
  refusedChip: (number, text) => _("Online: queued move %(number)s (%(move)s) was refused; choose below", { number, move: text }),
  refusedHere: (detail) => _(" — the rules on this device refuse it: %(why)s", { why: detail }),
  refusedThere: (detail) => _(" — refused by the server: %(why)s", { why: detail }),
  refusedHelp: (number, text, detail, behind, server) => [
    server ? _("Queued move %(number)s, %(move)s, was refused by the server: %(why)s.", { number, move: text, why: detail })
      : _("Queued move %(number)s, %(move)s, is refused by the rules on this device: %(why)s.", { number, move: text, why: detail }),
    behind ? ngettext("The %(count)s move after it is kept on this device and waits for your choice.",
      "The %(count)s moves after it are kept on this device and wait for your choice.", behind) : "",
    CHOICES[`${behind ? "behind" : "alone"}-${server ? "server" : "device"}`],
  ].filter(Boolean).join(" "),
  discardFrom: (behind) => (behind
    ? ngettext("Discard it and the %(count)s move after it", "Discard it and the %(count)s moves after it", behind)
    : _("Discard it")),
  discardOne: _("Discard only this move"),
  notQueued: (detail) => _("Not queued: the rules on this device refuse it: %(why)s", { why: detail }),
  replaceChecked: _("On this device's rules, your queued moves are legal after that."),
  replaceRefused: (number, text, detail) => _("On this device's rules, your queued move %(number)s (%(move)s) would then be refused: %(why)s", { number, move: text, why: detail }),
  replaceTheirs: (count) => (count
    ? ngettext("Withdraw their %(count)s move and record mine", "Withdraw their %(count)s moves and record mine", count)
    : _("Record mine after theirs")),
};

// What the arbiter may do about a refused queued move: with or without moves behind it,
// refused by the server (try again) or by the rules here (the server will judge).
const CHOICES = {
  "behind-server": _("Discard it and the moves after it, discard only it and keep the rest, or try again once the cause is fixed (e.g. after signing in again)."),
  "behind-device": _("Discard it and the moves after it, discard only it and keep the rest, or leave the queue for the server to judge."),
  "alone-server": _("Discard it, or try again once the cause is fixed (e.g. after signing in again)."),
  "alone-device": _("Discard it, or leave the queue for the server to judge."),
};

// The named errors the rules on this device may answer with (recorder/errors.py): their
// titles come from Python in English and are shown in the page's language; the detail,
// composed by the engine with the values at fault, stays English (docs/i18n.md).
const RULES_TITLES = {
  "Request refused": _("Request refused"),
  "Invalid record": _("Invalid record"),
  "Illegal move": _("Illegal move"),
  "Sowing never ends": _("Sowing never ends"),
  "Game is over": _("Game is over"),
  "Limit exceeded": _("Limit exceeded"),
};

// A refusal by the rules on this device ({ title, detail }) as the server's problem reads.
export function refusedWords(refused) {
  return [RULES_TITLES[refused.title] || refused.title, refused.detail].filter(Boolean).join(" — ");
}

const RETRY_MS = 4000;
const byId = (id) => document.getElementById(id);
const REPLACED = _("replaced by moves queued offline on another device");

export class OfflineRecorder {
  // hooks: version() the last recorded version the page knows; reload() read the game again;
  // changed() redraw what depends on the queue (the board's queued holes, the prompt).
  constructor(gameId, hooks) {
    this.gameId = gameId;
    this.hooks = hooks;
    this.pending = [];
    this.conflict = null;
    this.flushing = false;
    this.localRefusal = null; // where the rules on this device refuse the queue (game.js sets it)
    this.rulesReady = false;
  }

  async start() {
    this.pending = await queue.queued(this.gameId).catch(() => []);
    window.addEventListener("online", () => this.flush());
    window.addEventListener("offline", () => this.render());
    setInterval(() => this.flush(), RETRY_MS);
    this.wire();
    this.render();
    if (this.pending.length) {
      this.hooks.changed();
      this.flush();
    }
  }

  get holding() {
    return this.pending.length > 0;
  }

  // The holes the queue has sown, in order: the board rings them with their numbers.
  queuedHoles() {
    return this.pending.map((entry, index) => entry.command.type === "sow" ? [entry.command.hole, index + 1] : null).filter(Boolean);
  }

  async add(command, key) {
    const last = this.pending[this.pending.length - 1];
    const expected = last ? last.expected + 1 : this.hooks.version();
    this.pending.push(await queue.enqueue({ gameId: this.gameId, command, key, expected }));
    this.render();
  }

  // Send the queue in order; stop at the first that cannot be sent and say why.
  async flush() {
    if (this.flushing || !this.pending.length || this.conflict || this.pending[0].rejected) return;
    this.flushing = true;
    let sent = 0;
    try {
      while (this.pending.length && await this.sendFirst()) sent += 1;
    } catch (error) {
      if (!(error instanceof Offline)) console.warn("the queue could not be sent", error);
    } finally {
      this.flushing = false;
      this.render();
      if (sent || this.conflict) await this.hooks.reload();
    }
  }

  async sendFirst() {
    const entry = this.pending[0];
    let answer;
    try {
      answer = await sendCommand(this.gameId, entry.command, `"${entry.expected}"`, entry.key);
    } catch (error) {
      if (error instanceof Conflict) await this.readConflict(entry);
      else if (!(error instanceof Offline)) {
        entry.rejected = describeProblem(error);
        await queue.save(entry);
      }
      return false;
    }
    await queue.remove(entry.id);
    this.pending.shift();
    this.localRefusal = null; // its index was into the queue before the shift; the page folds again
    await this.rebase(answer.data.version);
    this.render();
    return true;
  }

  // The rest of the queue follows the server's version now (a command may store more than one event).
  async rebase(version) {
    for (const [index, entry] of this.pending.entries()) {
      entry.expected = version + index;
      await queue.save(entry);
    }
  }

  async readConflict(entry) {
    const { data } = await getJSON(`/api/games/${encodeURIComponent(this.gameId)}/events`);
    const theirs = data.events.filter((event) => event.seq > entry.expected);
    this.conflict = { base: entry.expected, theirs, version: data.events[data.events.length - 1].seq };
  }

  async discard(from = 0) {
    const dropped = this.pending.splice(from);
    await queue.removeAll(dropped);
    this.localRefusal = null;
    this.conflict = null;
    this.render();
    await this.hooks.reload();
  }

  // Withdraw the other device's moves with one retraction, then record the queue after it.
  async replaceTheirs() {
    const count = this.theirMoves();
    let version = this.conflict.version;
    try {
      if (count) {
        const retract = { type: "retract", count, reason: REPLACED };
        version = (await sendCommand(this.gameId, retract, `"${version}"`)).data.version;
      }
    } catch (error) {
      byId("conflict-error").textContent = describeProblem(error);
      byId("conflict-error").hidden = false;
      return;
    }
    await this.rebase(version);
    this.conflict = null;
    await this.flush();
  }

  // Drop the refused move only; the ones behind it stay queued and are sent next.
  async discardOne(index = 0) {
    const [dropped] = this.pending.splice(index, 1);
    if (dropped) await queue.remove(dropped.id);
    this.localRefusal = null;
    for (const entry of this.pending) delete entry.rejected;
    await this.rebase(this.hooks.version());
    this.render();
    await this.hooks.reload();
    await this.flush();
  }

  async retry() {
    for (const entry of this.pending) delete entry.rejected;
    if (this.pending[0]) await queue.save(this.pending[0]);
    await this.flush();
  }

  wire() {
    byId("discard-queued").addEventListener("click", () => this.discard());
    byId("replace-theirs").addEventListener("click", () => this.replaceTheirs());
    byId("retry-queued").addEventListener("click", () => this.retry());
    byId("discard-rejected").addEventListener("click", () => this.discard(this.refusal().index));
    byId("discard-refused-only").addEventListener("click", () => this.discardOne(this.refusal().index));
  }

  // -- Showing the queue --------------------------------------------------------------

  // The first queued move refused, by the server (it stops the queue) or by the rules on
  // this device (the server will refuse it too): { index, detail, server }, or null.
  refusal() {
    if (this.pending.length && this.pending[0].rejected) return { index: 0, detail: this.pending[0].rejected, server: true };
    const local = this.localRefusal;
    return local && local.index < this.pending.length ? { index: local.index, detail: refusedWords(local), server: false } : null;
  }

  render() {
    const online = navigator.onLine;
    const count = this.pending.length;
    const refusal = this.refusal();
    const refused = refusal && refusal.server ? this.pending[0] : null;
    const connection = byId("connection");
    connection.dataset.state = !online ? "offline" : refused ? "refused" : this.conflict ? "conflict" : this.holding ? "pending" : "online";
    connection.textContent = !online ? SAY.offline(count)
      : refused ? SAY.refusedChip(1, commandText(refused.command))
        : this.conflict ? SAY.waiting(count) : this.holding ? SAY.sending(count) : SAY.online;
    byId("pending").hidden = !this.holding;
    byId("pending-count").textContent = String(count);
    byId("pending-hint").textContent = this.rulesReady && !this.conflict ? SAY.pendingWithRules : SAY.pendingWithoutRules;
    const local = this.localRefusal;
    byId("pending-list").replaceChildren(...this.pending.map((entry, index) => element("li", {
      class: entry.rejected || (local && index === local.index) ? "rejected" : "queued", "data-key": entry.key, "data-expected": entry.expected,
    }, element("span", { class: "pending-mark", text: String(index + 1) }), ` ${commandText(entry.command)}`,
    entry.rejected ? element("span", { class: "error", text: SAY.refusedThere(entry.rejected) })
      : local && index === local.index ? element("span", { class: "error", text: SAY.refusedHere(refusedWords(local)) }) : null)));
    byId("rejected-actions").hidden = !refusal || Boolean(this.conflict);
    if (refusal) {
      const behind = count - refusal.index - 1;
      const text = commandText(this.pending[refusal.index].command);
      byId("rejected-help").textContent = SAY.refusedHelp(refusal.index + 1, text, refusal.detail, behind, refusal.server);
      byId("discard-rejected").textContent = SAY.discardFrom(behind);
      byId("discard-refused-only").textContent = SAY.discardOne;
      byId("discard-refused-only").hidden = behind === 0;
      byId("retry-queued").hidden = !refusal.server;
    }
    this.renderConflict();
  }

  renderConflict() {
    const conflict = this.conflict;
    byId("conflict").hidden = !conflict;
    if (!conflict) return;
    byId("conflict-error").hidden = true;
    byId("conflict-base").textContent = String(conflict.base);
    byId("conflict-theirs").replaceChildren(...conflict.theirs.map((event) =>
      element("li", { "data-seq": event.seq, text: `${moveText(event)}${event.recorded_by ? ` (${visible(event.recorded_by)})` : ""}` })));
    byId("conflict-mine").replaceChildren(...this.pending.map((entry) => element("li", { text: commandText(entry.command) })));
    byId("replace-theirs").textContent = SAY.replaceTheirs(this.theirMoves());
  }

  theirMoves() {
    return this.conflict ? this.conflict.theirs.filter((event) => MOVE_TYPES.has(event.type)).length : 0;
  }

  // What "withdraw theirs and record mine" would record: the commands the page's rules check.
  replacement() {
    const count = this.theirMoves();
    const retract = count ? [{ type: "retract", count, reason: REPLACED }] : [];
    return [...retract, ...this.pending.map((entry) => entry.command)];
  }

  // The answer of the rules on this device to replacement(), in words (game.js asks).
  showReplacementCheck(answer) {
    const line = byId("conflict-check");
    line.hidden = !answer;
    if (!answer) return;
    const offset = this.theirMoves() ? 1 : 0;
    const refused = answer.refused;
    line.textContent = !refused ? SAY.replaceChecked
      : SAY.replaceRefused(refused.index - offset + 1, commandText(this.replacement()[refused.index]), refusedWords(refused));
  }
}
