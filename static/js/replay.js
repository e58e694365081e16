// Replay viewer and share-text "Copy" buttons. Plain ES module: no build step, no CDN.
//
// The replay data comes from the page (json_script "replay-data"): the initial
// player view and steps {seq, action, words, score, changes}. Every frame is
// built once up front by applying each step's changes to the previous frame, so
// stepping back is just showing the previous frame. All text goes in through
// textContent: nothing from the data is ever parsed as HTML.

// The same function the live board applies an action's changes with.
import { applyChanges } from "./board/changes.js";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

function cardLabel(code) {
  const rank = code[0] === "T" ? "10" : code[0];
  return rank + (SUITS[code[1]] || code[1]);
}

function isRed(code) {
  return code[1] === "H" || code[1] === "D";
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function cardNode(code) {
  const node = el("span", "replay-card" + (isRed(code) ? " replay-card--red" : ""), cardLabel(code));
  return node;
}

function renderBoard(board, view, labels) {
  const root = el("div", "replay-board");

  const top = el("p", "replay-board__top");
  top.append(el("strong", "", labels.stock + ": "), String(view.stock), " · ");
  top.append(el("strong", "", labels.waste + ": "));
  const waste = view.waste || [];
  if (waste.length) {
    top.append(cardNode(waste[waste.length - 1]), ` (${waste.length})`);
  } else {
    top.append(labels.empty);
  }
  root.append(top);

  root.append(el("h3", "replay-board__heading", labels.foundations));
  const found = el("ol", "replay-foundations");
  for (const f of view.foundations) {
    const item = el("li");
    if (f.top) item.append(cardNode(f.top));
    else item.append(el("span", "replay-card replay-card--empty", SUITS[f.suit] || f.suit));
    found.append(item);
  }
  root.append(found);

  root.append(el("h3", "replay-board__heading", labels.columns));
  const columns = el("ol", "replay-columns");
  view.columns.forEach((column, i) => {
    const row = el("li", "replay-column");
    row.append(el("span", "replay-column__name", `${labels.column} ${i + 1}`));
    if (column.down) {
      const down = el("span", "replay-card replay-card--down", "▮".repeat(column.down));
      down.setAttribute("aria-label", `${column.down} ${labels.down}`);
      down.setAttribute("role", "img");
      row.append(down);
    }
    for (const code of column.cards) row.append(cardNode(code));
    if (!column.down && !column.cards.length) row.append(el("span", "muted", labels.empty));
    columns.append(row);
  });
  root.append(columns);

  board.replaceChildren(root);
}

function startReplay(section) {
  const source = document.getElementById("replay-data");
  if (!source) return;
  const data = JSON.parse(source.textContent);
  const labels = {
    stock: section.dataset.labelStock,
    waste: section.dataset.labelWaste,
    foundations: section.dataset.labelFoundations,
    columns: section.dataset.labelColumns,
    column: section.dataset.labelColumn,
    empty: section.dataset.labelEmpty,
    down: section.dataset.labelDown,
    deal: section.dataset.labelDeal,
  };
  const frames = [data.initial];
  for (const step of data.steps) frames.push(applyChanges(frames[frames.length - 1], step.changes));
  const last = frames.length - 1;

  const board = section.querySelector("[data-replay-board]");
  const stepOut = section.querySelector("[data-replay-step]");
  const scoreOut = section.querySelector("[data-replay-score]");
  const wordsOut = section.querySelector("[data-replay-words]");
  const notationOut = section.querySelector("[data-replay-notation]");
  const buttons = {};
  for (const button of section.querySelectorAll("[data-go]")) buttons[button.dataset.go] = button;

  let index = 0;
  function show(i) {
    index = Math.max(0, Math.min(last, i));
    const step = index ? data.steps[index - 1] : null;
    stepOut.textContent = String(index);
    scoreOut.textContent = String(step ? step.score : frames[0].score);
    wordsOut.textContent = step ? step.words : labels.deal;
    notationOut.textContent = step ? step.action : "";
    buttons.first.disabled = buttons.back.disabled = index === 0;
    buttons.forward.disabled = buttons.last.disabled = index === last;
    renderBoard(board, frames[index], labels);
  }

  const moves = {
    first: () => 0,
    back: () => index - 1,
    forward: () => index + 1,
    last: () => last,
  };
  for (const [name, target] of Object.entries(moves)) {
    buttons[name].addEventListener("click", () => show(target()));
  }
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    // Home/End would otherwise scroll the page: take them only inside the viewer.
    const inside = section.contains(event.target);
    const keys = {
      ArrowLeft: moves.back,
      ArrowRight: moves.forward,
      Home: inside ? moves.first : null,
      End: inside ? moves.last : null,
    };
    const target = keys[event.key];
    if (!target) return;
    event.preventDefault();
    show(target());
  });
  show(0);
}

// Share text: copy with the Clipboard API; where that is missing or refused
// (no HTTPS, permissions), select the text and say how to copy it by hand.
function startCopyButtons() {
  for (const button of document.querySelectorAll("[data-copy]")) {
    const field = document.getElementById(button.dataset.copy);
    const status = button.parentElement.querySelector("[role=status]");
    if (!field) continue;
    button.hidden = false;
    button.addEventListener("click", async () => {
      try {
        if (!navigator.clipboard) throw new Error("no clipboard");
        await navigator.clipboard.writeText(field.value);
        if (status) status.textContent = button.dataset.copied;
      } catch {
        field.focus();
        field.select();
        if (status) status.textContent = button.dataset.copyFailed;
      }
    });
  }
}

const viewer = document.querySelector("[data-replay]");
if (viewer) startReplay(viewer);
startCopyButtons();
