// The action queue: the player's actions go to the server one at a time, each stamped
// with the version it was chosen at, so the server can refuse one chosen on a board that
// has since changed. No DOM: it talks to a socket-like object ({isOpen, act(message)}).
//
// An action may be queued as a function instead of a message: it is asked for its
// message only when its turn comes, on the board the earlier answers brought (a tap made
// while the last one is still on its way is for the card it will uncover). It may then
// answer null: nothing to send any more.

// Taps beyond this many waiting are dropped, not stacked up without end: a person's
// burst of 10 taps a second for 10 seconds waits whole, as much as a socket's pace lets
// a person send (40 + 8 a second, docs/protocol.md, "Limits"). It was 40: on a slow
// server (answers 150-250 ms apart) a burst of 100 taps at 8 a second is more than 40
// behind by its 80th tap, and a tap dropped then made the taps after it act on a board
// the player never meant (a draw dropped: every later waste tap on another card).
export const MAX_QUEUED = 120;

export class ActionQueue {
  /**
   * @param {{isOpen: boolean, act(message: object): string}} socket   {isOpen, act(message) -> id}
   * @param {object} hooks    canSend() -> whether actions are taken now (a player, an
   *                          active game); version() -> the version the board shows;
   *                          syncing() -> whether the board waits for the server's
   *                          whole state (a version was skipped): nothing is chosen or
   *                          sent until it comes, so no tap is worked out on a board
   *                          that is about to be replaced
   * @param {() => boolean} hooks.canSend
   * @param {() => number} hooks.version
   * @param {() => boolean} [hooks.syncing]
   * @param {(fn: () => void, ms: number) => unknown} [hooks.later]
   * @param {number} [max]
   */
  constructor(
    socket,
    { canSend, version, syncing = () => false, later = (fn, ms) => setTimeout(fn, ms) },
    max = MAX_QUEUED,
  ) {
    this.socket = socket;
    this.canSend = canSend;
    this.version = version;
    this.syncing = syncing;
    this.later = later; // (fn, ms): run fn after ms (a test's own clock may stand in)
    this.max = max;
    this.waiting = [];
    this.inFlight = null;
    this.held = false; // a retry hint is being honoured: nothing goes out until it is over
    // The queue overflowed: every later action is dropped too until it has caught up (no
    // action waits), so no action runs after one dropped before it, on a board the
    // player did not mean.
    this.overflowed = false;
  }

  /** Whether an action is waiting for its answer or its turn, or the board for a sync. */
  get busy() {
    return Boolean(this.inFlight) || this.waiting.length > 0 || this.syncing();
  }

  /**
   * The server refused `item` (just answered) for pace, `rate_limited` (docs/protocol.md,
   * "Limits"): it goes out again first, once `ms` have passed, and nothing before it. A
   * person's taps are slowed, never lost.
   */
  retry(item, ms) {
    delete item.id;
    this.waiting.unshift(item);
    this.held = true;
    this.later(() => {
      this.held = false;
      this.pump();
    }, Math.max(0, ms));
  }

  /**
   * Queue `message` (or a function returning it, or null, at its turn);
   * `callbacks.onAccepted` / `onRefused` hear its answer (`onRefused` also when it is
   * dropped unsent).
   */
  enqueue(message, callbacks = {}) {
    if (!this.canSend()) return;
    if (this.waiting.length === 0) this.overflowed = false;
    if (this.overflowed || this.waiting.length >= this.max) {
      this.overflowed = true;
      callbacks.onRefused?.();
      return;
    }
    this.waiting.push({ message, callbacks });
    this.pump();
  }

  /**
   * Send the next action if none is waiting for its answer, no sync is awaited and the
   * socket is open. Call again when any of those changes.
   */
  pump() {
    while (!this.inFlight && !this.held && !this.syncing() && this.waiting.length && this.socket.isOpen) {
      const item = this.waiting.shift();
      const chosen = typeof item.message === "function" ? item.message() : item.message;
      if (!chosen || !this.canSend()) {
        item.callbacks.onRefused?.();
        continue;
      }
      const message = { ...chosen };
      // A resignation is valid whatever the position; everything else names its version.
      if (message.type !== "resign") message.version = this.version();
      item.id = this.socket.act(message);
      item.sent = message; // what was sent: a refusal's callout points at its cards
      this.inFlight = item;
    }
  }

  /** The queued item `msg` answers (accepted or refused), now settled; null if none. */
  answered(msg) {
    if (!this.inFlight || msg.id !== this.inFlight.id) return null;
    const item = this.inFlight;
    this.inFlight = null;
    return item;
  }
}
