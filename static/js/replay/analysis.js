// The post-game analysis on the replay page: ask for it (POST), follow its progress (the
// task writes it to the game's analysis row; this polls the same URL), then say where the
// win slipped away, with links to those moves on the board and the solver's winning line
// to play there. The server's data (json_script "analysis-data") is the first state.
//
// On the embedded defaults the analysis runs inside the POST itself: the polls, answered
// meanwhile by the server's other threads, still show its progress.

import { t } from "../board/i18n.js";

const POLL_MS = 800;
const WORKING = new Set(["queued", "running"]);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export class AnalysisPanel {
  constructor(section, viewer, initial) {
    this.section = section;
    this.viewer = viewer;
    this.url = section.dataset.url;
    this.form = section.querySelector("[data-analysis-form]");
    this.progress = section.querySelector("[data-analysis-progress]");
    this.bar = section.querySelector("[data-analysis-bar]");
    this.progressText = section.querySelector("[data-analysis-progress-text]");
    this.error = section.querySelector("[data-analysis-error]");
    this.result = section.querySelector("[data-analysis-result]");
    this.state = initial || { status: "none" };
    this.asking = false;
    this.pollTimer = null;
  }

  start() {
    this.form?.addEventListener("submit", (event) => {
      event.preventDefault();
      this.ask();
    });
    this.update(this.state);
    if (WORKING.has(this.state.status)) this.poll(); // asked for in another tab, or before a reload
    this.section.dataset.ready = "true"; // the form is the script's from now on
  }

  async ask() {
    this.asking = true;
    this.update({ status: "queued", done: 0, total: 0 });
    this.poll();
    const token = this.form.querySelector("[name=csrfmiddlewaretoken]")?.value || "";
    let body;
    let ok = false;
    try {
      const response = await fetch(this.url, {
        method: "POST",
        headers: { Accept: "application/json", "X-CSRFToken": token },
        credentials: "same-origin",
      });
      ok = response.ok;
      body = await response.json();
    } catch {
      body = null;
    }
    this.asking = false;
    this.stopPolling();
    if (ok && body) this.update(body);
    else this.refused(body);
  }

  poll() {
    clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(async () => {
      try {
        const response = await fetch(this.url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
        if (response.ok) {
          const body = await response.json();
          // Before the request's row exists a poll reads "none": still waiting.
          if (this.pollTimer !== null && !(this.asking && body.status === "none")) this.update(body);
        }
      } catch {
        /* the next poll will tell */
      }
      if (this.pollTimer !== null && (this.asking || WORKING.has(this.state.status))) this.poll();
    }, POLL_MS);
  }

  stopPolling() {
    clearTimeout(this.pollTimer);
    this.pollTimer = null;
  }

  update(data) {
    this.state = data;
    this.section.dataset.status = data.status;
    const working = WORKING.has(data.status) || this.asking;
    this.progress.hidden = !working;
    if (this.form) this.form.hidden = working || data.status === "done";
    if (working) {
      this.error.hidden = true;
      this.showProgress(data);
    } else if (!this.asking) {
      this.stopPolling();
    }
    if (data.status === "failed") this.showError(t("The analysis failed: %(reason)s", { reason: data.reason || "" }));
    if (data.status === "done" && data.result) this.showResult(data.result);
  }

  showProgress(data) {
    const done = data.done || 0;
    const total = Math.max(done, data.total || 0);
    if (total) {
      this.bar.max = total;
      this.bar.value = done;
    } else {
      this.bar.removeAttribute("value"); // indeterminate until the first position is decided
    }
    let text = t("Analysing: the solver is on its way.");
    if (data.status === "running" && done) {
      text =
        total > done
          ? t("Analysing: %(done)s positions checked, about %(left)s to go.", { done, left: total - done })
          : t("Analysing: %(done)s positions checked, now with more time for the undecided ones.", { done });
    }
    this.progressText.textContent = text;
  }

  refused(body) {
    this.update({ status: "none" });
    if (body && body.code === "rate_limited") {
      this.showError(t("Too many analyses asked for: try again in %(n)s s.", { n: body.retry_after }));
    } else if (body && body.code === "not_authenticated") {
      this.showError(t("Sign in to ask for the analysis."));
    } else {
      this.showError(body && body.reason ? body.reason : t("The analysis could not be asked for: try again."));
    }
  }

  showError(text) {
    this.error.textContent = text;
    this.error.hidden = false;
    if (this.form) this.form.hidden = false;
  }

  /** The result in words: see describe(), plus the winning line and what it cost. */
  showResult(result) {
    const nodes = describe(result, (text, step) => this.stepLink(text, step));
    if (result.line_steps && result.line_steps.length && result.win_step !== null) {
      const p = el("p", "analysis__line");
      const count = result.line_steps.length;
      p.append(t("A winning line from move %(n)s: %(count)s moves.", { n: result.win_step, count }), " ");
      const button = el("button", "button", t("Play the winning line"));
      button.type = "button";
      button.dataset.analysisLine = "";
      button.addEventListener("click", () => {
        this.viewer.showLine(result.win_step, result.line_steps);
        this.viewer.play();
      });
      p.append(button);
      nodes.push(p);
      // Where the game and the line part: the line's first move, and the one played.
      const played = this.viewer.game.steps[result.win_step];
      if (played) {
        const words = { line: result.line_steps[0].words, played: played.words };
        nodes.push(el("p", "analysis__fork", t("From there the line plays “%(line)s”; the game went on with “%(played)s”.", words)));
      }
    }
    const cost = t("The solver checked %(checked)s positions in %(seconds)s s, at most %(each)s s each.", {
      checked: result.checked,
      seconds: Math.round(result.seconds * 10) / 10,
      each: result.position_seconds,
    });
    nodes.push(el("p", "muted analysis__cost", cost));
    this.result.replaceChildren(...nodes);
  }

  /** A link to a step of the game (the viewer shows it on the board above). */
  stepLink(text, step) {
    const a = el("a", "", text);
    a.href = `#move=${step}`;
    return a;
  }
}

/** The verdict in paragraphs; `link(text, step)` makes a link to a step of the game. */
function describe(result, link) {
  const para = (...parts) => {
    const p = el("p");
    p.append(...parts.flatMap((part, i) => (i ? [" ", part] : [part])));
    return p;
  };
  const win = result.win_step;
  const lost = result.lost_step;
  switch (result.verdict) {
    case "exact":
      return [
        para(
          t("A win was still possible after move %(n)s.", { n: win }),
          link(t("See the last winnable position"), win),
        ),
        para(
          el("strong", "", t("The move that lost it:")),
          t("move %(n)s, %(words)s.", { n: result.losing.seq, words: result.losing.words }),
          link(t("See the move"), result.losing.seq),
        ),
      ];
    case "between": {
      const undecided = { count: result.undecided, first: win + 1, last: lost };
      return [
        para(
          t("A win was still possible after move %(n)s, with %(stock)s cards in the stock.", {
            n: win,
            stock: result.stock_at_win,
          }),
          link(t("See that position"), win),
        ),
        ...(lost === null
          ? [para(t("The solver could not decide within its budget whether a win was left after it."))]
          : [
              para(t("After move %(n)s no win was left.", { n: lost }), link(t("See that position"), lost)),
              para(t("The solver could not decide the %(count)s positions in between within its budget: the move that lost the game is one of moves %(first)s to %(last)s.", undecided)),
            ]),
      ];
    }
    case "at_end":
      return [para(t("A win was still possible when the game ended: nothing was lost yet."))];
    case "never":
      return [para(t("No win was possible from the deal itself: no move lost this game."))];
    default: {
      const nodes = [para(t("The solver found no win from any position it checked: the deal may have had none."))];
      if (lost !== null) nodes.push(para(t("After move %(n)s no win was left for certain.", { n: lost }), link(t("See that position"), lost)));
      return nodes;
    }
  }
}
