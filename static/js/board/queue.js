// The action queue: the player's actions go to the server one at a time, each stamped
// with the version it was chosen at, so the server can refuse one chosen on a board that
// has since changed. No DOM: it talks to a socket-like object ({isOpen, act(message)}).

const MAX_QUEUED = 3; // taps beyond this while the server is busy are dropped, not stacked up

export class ActionQueue {
  /**
   * @param {object} socket   {isOpen, act(message) -> id}
   * @param {object} hooks    canSend() -> whether actions are taken now (a player, an
   *                          active game); version() -> the version the board shows
   */
  constructor(socket, { canSend, version }, max = MAX_QUEUED) {
    this.socket = socket;
    this.canSend = canSend;
    this.version = version;
    this.max = max;
    this.waiting = [];
    this.inFlight = null;
  }

  /** Queue `message`; `callbacks.onAccepted` / `onRefused` hear its answer. */
  enqueue(message, callbacks = {}) {
    if (!this.canSend()) return;
    if (this.waiting.length >= this.max) {
      callbacks.onRefused?.();
      return;
    }
    this.waiting.push({ message, callbacks });
    this.pump();
  }

  /** Send the next action if none is waiting for its answer and the socket is open. */
  pump() {
    if (this.inFlight || !this.waiting.length || !this.socket.isOpen) return;
    const item = this.waiting.shift();
    const message = { ...item.message };
    // A resignation is valid whatever the position; everything else names its version.
    if (message.type !== "resign") message.version = this.version();
    item.id = this.socket.act(message);
    this.inFlight = item;
  }

  /** The queued item `msg` answers (accepted or refused), now settled; null if none. */
  answered(msg) {
    if (!this.inFlight || msg.id !== this.inFlight.id) return null;
    const item = this.inFlight;
    this.inFlight = null;
    return item;
  }
}
