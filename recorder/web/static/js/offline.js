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
import * as queue from "./queue.js";
import { commandText, MOVE_TYPES, moveText } from "./record.js";
import { element, visible } from "./site.js";

const moves = (count) => `${count} move${count === 1 ? "" : "s"}`;

// Every sentence about the queue and the rules on this device, in one place.
export const SAY = {
  rulesStandby: "The rules are kept on this device: if the network drops, they check the moves recorded offline.",
  rulesLoading: "Starting the rules on this device for offline recording…",
  rulesReady: "The rules run on this device: offline, the board shows the position after the queued moves.",
  rulesMissing: "The rules are not loaded on this device: offline, the board stays at the last recorded position, any hole can be tapped, and the server checks the moves when the network returns.",
  pendingWithRules: "Kept on this device and sent in order when the network returns. The board shows the position after them.",
  pendingWithoutRules: "Kept on this device and sent in order when the network returns. The board shows the last recorded position.",
  promptWithoutRules: "Moves are pending: tap the next hole played. The board shows the last recorded position.",
  queuedAfter: (count) => `After the ${moves(count)} queued on this device.`,
  offline: (count) => `Offline: moves are kept on this device${count ? ` (${count} pending)` : ""}`,
  online: "Online: every move is recorded",
  sending: (count) => `Online: sending ${moves(count)} pending…`,
  waiting: (count) => `Online: ${moves(count)} ${count === 1 ? "waits" : "wait"} for your choice below`,
  refusedChip: (number, text) => `Online: queued move ${number} (${text}) was refused; choose below`,
  refusedHere: (detail) => ` — the rules on this device refuse it: ${detail}`,
  refusedThere: (detail) => ` — refused by the server: ${detail}`,
  refusedHelp: (number, text, detail, behind, server) => `Queued move ${number}, ${text}, ${server ? "was refused by the server" : "is refused by the rules on this device"}: ${detail}. `
    + (behind ? `The ${moves(behind)} after it ${behind === 1 ? "is" : "are"} kept on this device and ${behind === 1 ? "waits" : "wait"} for your choice. ` : "")
    + (behind ? "Discard it and the moves after it, discard only it and keep the rest, or " : "Discard it, or ")
    + (server ? "try again once the cause is fixed (e.g. after signing in again)." : "leave the queue for the server to judge."),
  discardFrom: (behind) => (behind ? `Discard it and the ${moves(behind)} after it` : "Discard it"),
  discardOne: "Discard only this move",
  notQueued: (detail) => `Not queued: the rules on this device refuse it: ${detail}`,
  replaceChecked: "On this device's rules, your queued moves are legal after that.",
  replaceRefused: (number, text, detail) => `On this device's rules, your queued move ${number} (${text}) would then be refused: ${detail}`,
  replaceTheirs: (count) => (count ? `Withdraw their ${moves(count)} and record mine` : "Record mine after theirs"),
};

const RETRY_MS = 4000;
const byId = (id) => document.getElementById(id);
const REPLACED = "replaced by moves queued offline on another device";

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
    return local && local.index < this.pending.length ? { index: local.index, detail: local.detail, server: false } : null;
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
      : local && index === local.index ? element("span", { class: "error", text: SAY.refusedHere(local.detail) }) : null)));
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
      : SAY.replaceRefused(refused.index - offset + 1, commandText(this.replacement()[refused.index]), refused.detail);
  }
}
