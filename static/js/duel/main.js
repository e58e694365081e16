// The duel panel (templates/games/_duel_panel.html): the duel socket's messages drawn in
// the player's words, both seats' counts and clocks, presence, the result and the
// rematch. The player's own moves go over their game's socket (static/js/board); this
// socket only watches. Strings come from Django's JavaScript catalog (board/i18n.js).

import { GameSocket } from "../board/socket.js";
import { t } from "../board/i18n.js";
import { clockText, fromDuel, outcomeOf, reduce, seatClock } from "./state.js";

const panel = document.querySelector("[data-duel]");
const configNode = document.getElementById("duel-config");
if (panel instanceof HTMLElement && configNode) start(panel, JSON.parse(configNode.textContent || "{}"));

/**
 * @param {HTMLElement} panel
 * @param {{socket_path: string, duel: import("./state.js").Duel, rematch_url: string}} config
 */
function start(panel, config) {
  let state = fromDuel(config.duel, Date.now());
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new GameSocket(`${scheme}//${location.host}${config.socket_path}`, {
    onMessage(message) {
      const before = state;
      state = reduce(state, message, Date.now());
      if (message.type === "started" && before.duel.state === "waiting") {
        location.reload(); // the table is drawn by the server once the duel has started
        return;
      }
      if (message.type === "duel_end") socket.send({ type: "sync" }); // the revealed code
      draw();
    },
    onStatus(status) {
      panel.classList.toggle("is-offline", status !== "connected");
    },
  });
  socket.start();
  setInterval(drawClocks, 250);
  draw();

  function draw() {
    for (const seat of state.duel.seats) {
      const box = panel.querySelector(`[data-duel-seat="${seat.seat}"]`);
      if (!box) continue;
      setField(box, "home", String(seat.home));
      setField(box, "score", String(seat.score));
      setField(box, "moves", String(seat.moves));
      setField(box, "stock", String(seat.stock));
      setField(box, "presence", presenceWords(seat));
      box.classList.toggle("is-away", !seat.connected);
      box.classList.toggle("is-first", state.duel.state === "finished" && seat.place === 1);
      if (seat.replay_game_id && !box.querySelector("[data-duel-replay]")) {
        const line = document.createElement("p");
        const link = document.createElement("a");
        link.href = `/games/${seat.replay_game_id}/replay/`;
        link.dataset.duelReplay = "";
        link.textContent = t("Replay this game");
        line.append(link);
        box.append(line);
      }
    }
    drawClocks();
    const status = panel.querySelector("[data-duel-status]");
    if (status) status.textContent = statusWords();
    const rematch = panel.querySelector("[data-duel-rematch]");
    if (rematch instanceof HTMLElement) rematch.hidden = state.duel.state !== "finished";
    if (state.duel.code && !panel.querySelector('[data-testid="duel-both-replays"]')) {
      const line = document.createElement("p");
      const link = document.createElement("a");
      link.href = `/duels/${state.duel.id}/replay/`;
      link.dataset.testid = "duel-both-replays";
      link.textContent = t("Both games side by side");
      line.append(link);
      panel.append(line);
    }
    const offer = panel.querySelector("[data-duel-rematch-offer]");
    if (offer instanceof HTMLElement) offer.hidden = state.rematchId === null;
  }

  function drawClocks() {
    const now = Date.now();
    for (const seat of state.duel.seats) {
      const box = panel.querySelector(`[data-duel-seat="${seat.seat}"]`);
      if (!box) continue;
      const clock = seatClock(state, seat, now);
      const text =
        clock.kind === "none"
          ? "–:––"
          : clock.kind === "starts"
            ? t("starts in %(time)s", { time: clockText(clock.ms) })
            : clock.kind === "done"
              ? t("finished in %(time)s", { time: clockText(clock.ms, { up: false }) })
              : clockText(clock.ms);
      setField(box, "clock", text);
      box.classList.toggle("is-low", clock.kind === "left" && clock.ms < 60_000);
    }
  }

  /** @param {import("./state.js").Seat} seat */
  function presenceWords(seat) {
    if (seat.forfeited) return t("Left the duel");
    if (seat.connected) return t("Connected");
    return t("Not connected: loses after %(seconds)s s away", { seconds: state.duel.grace_seconds });
  }

  function statusWords() {
    const duel = state.duel;
    if (duel.state === "waiting") return t("Waiting for your opponent…");
    if (duel.state === "cancelled") return t("This challenge has expired.");
    const outcome = outcomeOf(duel);
    if (outcome === null) return t("The duel is on.");
    if (outcome.result === "tie") return t("A tie.");
    if (outcome.result === "decided") return t("The duel is over.");
    if (outcome.result === "won") return outcome.forfeit ? t("You won: your opponent left.") : t("You won the duel!");
    return outcome.forfeit ? t("You lost: you were away too long.") : t("You lost the duel.");
  }
}

/**
 * @param {Element} box
 * @param {string} name
 * @param {string} text
 */
function setField(box, name, text) {
  const field = box.querySelector(`[data-field="${name}"]`);
  if (field && field.textContent !== text) field.textContent = text;
}
