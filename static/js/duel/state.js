// The duel panel's state, pure: what each duel socket message (docs/protocol.md, "The duel
// socket") does to it, and the clocks read from it. No DOM, no strings: main.js draws it
// in the player's words. Seats carry counts only (cards home, stock left, score, moves).

/**
 * @typedef {{seat: number, name: string, rating: number, home: number, stock: number,
 *   score: number, moves: number, version: number, status: string|null,
 *   time_ms: number|null, connected: boolean, forfeited: boolean, place: number|null,
 *   replay_game_id: string|null}} Seat
 * @typedef {{id: string, state: string, rated: boolean, variant: string, time_control: number,
 *   started_at: string|null, ends_at: string|null, ended_at: string|null, server_now: string,
 *   outcome: string, role: string, seat: number|null, game_id: string|null,
 *   commitment: string|null, code: string|null, grace_seconds: number, seats: Seat[]}} Duel
 * @typedef {{duel: Duel, skewMs: number, rematchId: string|null, started: boolean}} PanelState
 */

/**
 * The panel's state from a `duel` message received at the client's `clientNowMs`: the
 * skew is how far the server's clock is ahead of this one (the clocks count by the server).
 * @param {Duel} duel
 * @param {number} clientNowMs
 * @returns {PanelState}
 */
export function fromDuel(duel, clientNowMs) {
  return { duel, skewMs: Date.parse(duel.server_now) - clientNowMs, rematchId: null, started: false };
}

/**
 * The state after one message of the duel socket (a message of another kind changes nothing).
 * @param {PanelState} state
 * @param {any} message
 * @param {number} clientNowMs
 * @returns {PanelState}
 */
export function reduce(state, message, clientNowMs) {
  switch (message.type) {
    case "duel":
      return { ...fromDuel(message.duel, clientNowMs), rematchId: state.rematchId };
    case "progress":
      return withSeat(state, message.seat, (seat) =>
        message.version < seat.version
          ? seat // an older action arriving late: the newer counts stand
          : {
              ...seat,
              home: message.home,
              stock: message.stock,
              score: message.score,
              moves: message.moves,
              version: message.version,
              status: message.status,
              time_ms: message.time_ms,
            },
      );
    case "presence":
      return withSeat(state, message.seat, (seat) => ({ ...seat, connected: message.connected }));
    case "duel_end": {
      const seats = state.duel.seats.map((seat, i) => ({ ...seat, place: message.places[i] ?? null }));
      return { ...state, duel: { ...state.duel, state: "finished", outcome: message.outcome, seats } };
    }
    case "rematch":
      return { ...state, rematchId: message.duel_id };
    case "started":
      return { ...state, started: true };
    default:
      return state;
  }
}

/**
 * @param {PanelState} state
 * @param {number} index
 * @param {(seat: Seat) => Seat} change
 * @returns {PanelState}
 */
function withSeat(state, index, change) {
  const seats = state.duel.seats.map((seat) => (seat.seat === index ? change(seat) : seat));
  return { ...state, duel: { ...state.duel, seats } };
}

/**
 * What a seat's clock shows at the client's `clientNowMs`, in ms: the time it took once its
 * game is over ("done"), the time left while it plays ("left"), the countdown before the
 * start ("starts"), or nothing before the duel has its two players.
 * @param {PanelState} state
 * @param {Seat} seat
 * @param {number} clientNowMs
 * @returns {{kind: "done"|"left"|"starts"|"none", ms: number}}
 */
export function seatClock(state, seat, clientNowMs) {
  const { duel } = state;
  if (seat.time_ms !== null && seat.status !== "active") return { kind: "done", ms: seat.time_ms };
  if (!duel.started_at || !duel.ends_at) return { kind: "none", ms: 0 };
  const now = clientNowMs + state.skewMs;
  const start = Date.parse(duel.started_at);
  if (now < start) return { kind: "starts", ms: start - now };
  return { kind: "left", ms: Math.max(0, Date.parse(duel.ends_at) - now) };
}

/**
 * `ms` as a clock: "9:05", "0:00"; whole seconds, rounded up while time is left so the
 * clock shows 0:00 only at the flag.
 * @param {number} ms
 * @param {{up?: boolean}} [options]
 * @returns {string}
 */
export function clockText(ms, { up = true } = {}) {
  const seconds = Math.max(0, up ? Math.ceil(ms / 1000) : Math.floor(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * The viewer's outcome once the duel is decided: "won", "lost", "tie", or for a watcher
 * "decided"; `forfeit` when a player lost by leaving. `null` before the end.
 * @param {Duel} duel
 * @returns {{result: "won"|"lost"|"tie"|"decided", forfeit: boolean}|null}
 */
export function outcomeOf(duel) {
  if (duel.state !== "finished") return null;
  const forfeit = duel.outcome === "forfeit";
  if (duel.outcome === "tie") return { result: "tie", forfeit };
  const mine = duel.seats.find((seat) => seat.seat === duel.seat);
  if (!mine || mine.place === null) return { result: "decided", forfeit };
  return { result: mine.place === 1 ? "won" : "lost", forfeit };
}

/**
 * How long the queue's page waits before asking again: 2 s, or the wait a rate_limited
 * refusal named; `null` once there is nothing more to ask (paired, or refused for good).
 * @param {{waiting?: boolean, duel?: string, code?: string}} answer
 * @param {number|null} retryAfterSeconds
 * @returns {number|null}
 */
export function nextAskMs(answer, retryAfterSeconds) {
  if (answer.duel) return null;
  if (answer.code === "rate_limited") return Math.max(2, retryAfterSeconds || 0) * 1000;
  if (answer.code) return null;
  return 2000;
}
