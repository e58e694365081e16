"""Taps dispatched inside the page on its own timer (test_gestures.py, test_taps.py)."""

import os

# The longer browser run (README.md, `make test-long`): every pace test, each pointer
# with each answer speed. CI runs one of each pointer and each speed (test_gestures.py).
LONG_RUN = os.environ.get("FT_BROWSER_LONG", "") == "1"
LONG_ONLY = "a longer run's case: FT_BROWSER_LONG=1 runs it"

# Taps inside the page: at the place of a pile's top card (the stock: its middle), through
# the page's own hit test (elementFromPoint, which cards sliding to their place let
# through), as pointer events of the given type. Records each press's pointerdown time.
TAPPER = """(() => {
  const presses = (window.__ftPresses = []);
  document.addEventListener("pointerdown", (e) => presses.push(e.timeStamp), true);
  function point(pile) {
    const pileEl = document.querySelector(`.ft-table [data-pile="${pile}"]`);
    const cards = pileEl.querySelectorAll(".ft-card[data-card]");
    if (pile === "stock" || !cards.length) {
      const r = pileEl.getBoundingClientRect();
      return [r.left + r.width / 2, r.top + Math.min(r.height / 2, 40)];
    }
    // Where the top card's place is (a quick player aims at the pile, not at a card
    // still sliding there): the pile's box and the card's offset in it.
    const box = pileEl.getBoundingClientRect();
    const card = cards[cards.length - 1];
    return [box.left + card.offsetLeft + card.offsetWidth / 2, box.top + card.offsetTop + 12];
  }
  function press(x, y, type) {
    const target = document.elementFromPoint(x, y);
    const init = { bubbles: true, cancelable: true, composed: true, clientX: x, clientY: y,
                   pointerId: type === "touch" ? 7 : 1, pointerType: type, isPrimary: true,
                   button: 0, buttons: 1 };
    target.dispatchEvent(new PointerEvent("pointerdown", init));
    target.dispatchEvent(new PointerEvent("pointerup", { ...init, buttons: 0 }));
  }
  // Each tap `every` ms after the one before (a number, or one per tap), later if the
  // page is busy, never sooner. Resolves with the times of the taps.
  window.__ftTap = (piles, every, type) => new Promise((resolve) => {
    const at = [];
    const next = () => {
      at.push(performance.now());
      const [x, y] = point(piles[at.length - 1]);
      press(x, y, type);
      if (at.length === piles.length) resolve(at);
      else setTimeout(next, Array.isArray(every) ? every[at.length] : every);
    };
    next();
  });
})();"""
