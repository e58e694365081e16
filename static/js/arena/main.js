// The arena page's live table (templates/games/arena.html): each `standings` message of
// the arena socket drawn into the table. A row's words ("you", "left") come from the
// page's own <template>, translated by the server, so this script has no strings.

import { GameSocket } from "../board/socket.js";
import { tableRows } from "./standings.js";

const table = document.querySelector("[data-arena-socket]");
const rowTemplate = document.getElementById("arena-row");
if (table instanceof HTMLTableElement && rowTemplate instanceof HTMLTemplateElement) {
  start(table, rowTemplate);
}

/**
 * @param {HTMLTableElement} table
 * @param {HTMLTemplateElement} template
 */
function start(table, template) {
  const viewer = Number(table.dataset.arenaEntry) || null;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new GameSocket(`${scheme}//${location.host}${table.dataset.arenaSocket}`, {
    onMessage(message) {
      if (message.type === "standings") draw(tableRows(message, viewer));
    },
    onStatus(status) {
      table.classList.toggle("is-offline", status !== "connected");
    },
  });
  socket.start();

  /** @param {import("./standings.js").Line[]} lines */
  function draw(lines) {
    const body = table.tBodies[0];
    if (!body || lines.length === 0) return; // the page's "nobody has joined" row stays
    body.replaceChildren(...lines.map(line));
  }

  /** @param {import("./standings.js").Line} row */
  function line(row) {
    const first = template.content.firstElementChild;
    const tr = /** @type {HTMLTableRowElement} */ (first ? first.cloneNode(true) : document.createElement("tr"));
    setField(tr, "rank", String(row.rank));
    setField(tr, "name", row.name);
    setField(tr, "points", String(row.points));
    setField(tr, "rounds", String(row.rounds_played));
    tr.classList.toggle("board-me", row.viewer);
    for (const mark of tr.querySelectorAll("[data-mark]")) {
      if (!(mark instanceof HTMLElement)) continue;
      mark.hidden = mark.dataset.mark === "you" ? !row.viewer : !row.left;
    }
    return tr;
  }
}

/**
 * @param {Element} row
 * @param {string} name
 * @param {string} text
 */
function setField(row, name, text) {
  const field = row.querySelector(`[data-field="${name}"]`);
  if (field) field.textContent = text;
}
