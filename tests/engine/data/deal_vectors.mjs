// Independent implementation of docs/deals.md sections 1-5 (unshuffled deck, SHA-256 word
// stream, rejection-sampled Durstenfeld shuffle, row-by-row deal, face-down counts, deal codes),
// written from the spec alone, to produce known-answer vectors for the engine's tests.
//
// Run from the repository root (Node 20, no npm packages):
//   node tests/engine/data/deal_vectors.mjs > tests/engine/data/deal_vectors.json
// Sanity checks are printed to stderr; the process exits non-zero if any fails.

import { createHash } from "node:crypto";

const RANKS = "A23456789TJQK";
const SUITS = "SHDC";
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// Section 4 table: letter, packs, columns, cards per column, face down, stock, aces out.
const VARIANTS = {
  "forty-thieves": { letter: "N", packs: 2, cols: 10, rows: 4, down: 0, stock: 64 },
  "josephine":     { letter: "J", packs: 2, cols: 10, rows: 4, down: 0, stock: 64 },
  "limited":       { letter: "L", packs: 2, cols: 12, rows: 3, down: 0, stock: 68 },
  "indian":        { letter: "I", packs: 2, cols: 10, rows: 3, down: 1, stock: 74 },
  "streets":       { letter: "S", packs: 2, cols: 10, rows: 4, down: 0, stock: 64 },
  "sixty-thieves": { letter: "X", packs: 3, cols: 12, rows: 5, down: 0, stock: 96 },
  "lucas":         { letter: "C", packs: 2, cols: 13, rows: 3, down: 0, stock: 57, acesOut: true },
  "maria":         { letter: "M", packs: 2, cols: 9,  rows: 4, down: 0, stock: 68 },
  "number-ten":    { letter: "T", packs: 2, cols: 10, rows: 4, down: 2, stock: 64 },
  "rank-and-file": { letter: "R", packs: 2, cols: 10, rows: 4, down: 3, stock: 64 },
  "little-forty":  { letter: "F", packs: 2, cols: 10, rows: 4, down: 0, stock: 64 },
};

const MAX_SEED = (1n << 128n) - 1n;
const SHORT_LIMIT = 1n << 35n;

// Section 1: pack after pack, suits S H D C, ranks A..K (aces left out for lucas).
function unshuffledDeck(v) {
  const deck = [];
  for (let p = 0; p < v.packs; p++)
    for (const s of SUITS)
      for (const r of RANKS)
        if (!(v.acesOut && r === "A")) deck.push(r + s);
  return deck;
}

function bigToBytes(x, len) {
  const b = Buffer.alloc(len);
  for (let k = len - 1; k >= 0; k--) { b[k] = Number(x & 0xffn); x >>= 8n; }
  return b;
}

// Section 2: block i = SHA-256("FT1" || seed (16 bytes BE) || i (8 bytes BE)), 8 BE words each.
function* wordStream(seed) {
  if (seed < 0n || seed > MAX_SEED) throw new RangeError("seed out of range");
  const prefix = Buffer.concat([Buffer.from("FT1", "ascii"), bigToBytes(seed, 16)]);
  for (let i = 0n; ; i++) {
    const d = createHash("sha256").update(prefix).update(bigToBytes(i, 8)).digest();
    for (let k = 0; k < 32; k += 4) yield d.readUInt32BE(k);
  }
}

// Section 3: Durstenfeld shuffle with rejection sampling.
function shuffle(deck, seed) {
  const words = wordStream(seed);
  const TWO32 = 2 ** 32; // exact in a double
  for (let i = deck.length - 1; i >= 1; i--) {
    const bound = i + 1;
    const limit = TWO32 - (TWO32 % bound);
    let w = words.next().value;
    while (w >= limit) w = words.next().value;
    const j = w % bound;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

// Section 4: deal row by row; columns listed bottom to top; the rest is the stock.
function deal(variantName, seed) {
  const v = VARIANTS[variantName];
  const deck = shuffle(unshuffledDeck(v), seed);
  const columns = Array.from({ length: v.cols }, () => []);
  for (let r = 0; r < v.rows; r++)
    for (let c = 0; c < v.cols; c++) columns[c].push(deck[r * v.cols + c]);
  return { columns, face_down: v.down, stock: deck.slice(v.cols * v.rows) };
}

// Section 5: FT1-<letter><options>-<seed in Crockford base 32, 7 or 26 chars>.
const OPTION_ORDER = ["K", "1", "2", "B"];
function dealCode(variantName, seed, options = []) {
  if (seed < 0n || seed > MAX_SEED) throw new RangeError("seed out of range");
  const opts = OPTION_ORDER.filter((o) => options.includes(o)).join("");
  let digits = "";
  for (let x = seed; x > 0n; x >>= 5n) digits = CROCKFORD[Number(x & 31n)] + digits;
  const width = seed < SHORT_LIMIT ? 7 : 26;
  return `FT1-${VARIANTS[variantName].letter}${opts}-${digits.padStart(width, "0")}`;
}

function firstWords(seed, n = 4) {
  const out = [], it = wordStream(seed);
  for (let k = 0; k < n; k++) out.push(it.next().value);
  return out;
}

// ---- build the vectors ----
const classicExtra = [7n, (1n << 35n) - 1n, 1n << 35n, (1n << 64n) + 1n, MAX_SEED,
                      BigInt("0x0123456789abcdef0123456789abcdef")];
const cases = [];
for (const name of Object.keys(VARIANTS)) for (const s of [0n, 1n, 12345n]) cases.push([name, s]);
for (const s of classicExtra) cases.push(["forty-thieves", s]);

const vectors = cases.map(([name, seed]) => ({
  variant: name,
  letter: VARIANTS[name].letter,
  seed: seed.toString(),
  code: dealCode(name, seed),
  first_words: firstWords(seed),
  ...deal(name, seed),
}));
for (const [name, seed, options] of [["josephine", 12345n, ["K", "2"]], ["forty-thieves", 7n, ["B"]]])
  vectors.push({ variant: name, letter: VARIANTS[name].letter, seed: seed.toString(),
                 options, code: dealCode(name, seed, options) });

// ---- sanity checks (stderr) ----
let failures = 0;
function check(ok, msg) { console.error(`${ok ? "ok  " : "FAIL"} ${msg}`); if (!ok) failures++; }
const multiset = (cards) => [...cards].sort().join(" ");

check(firstWords(0n, 1)[0] === 0x9f664268, `first word for seed 0 is 0x${firstWords(0n, 1)[0].toString(16)} (spec: 0x9f664268)`);
check(dealCode("forty-thieves", 7n) === "FT1-N-0000007", `code ${dealCode("forty-thieves", 7n)} (spec: FT1-N-0000007)`);
check(dealCode("josephine", 12345n, ["K", "2"]) === "FT1-JK2-0000C1S",
      `code ${dealCode("josephine", 12345n, ["K", "2"])} (spec: FT1-JK2-0000C1S)`);
check(dealCode("forty-thieves", (1n << 35n) - 1n).length === 13, "2^35-1 gives a 7-char seed");
check(dealCode("forty-thieves", 1n << 35n).length === 32, "2^35 gives a 26-char seed");
for (const v of vectors.filter((x) => x.columns)) {
  const spec = VARIANTS[v.variant];
  const cards = [...v.columns.flat(), ...v.stock];
  const expected = [];
  for (let p = 0; p < spec.packs; p++)
    for (const s of SUITS) for (const r of RANKS) if (!(spec.acesOut && r === "A")) expected.push(r + s);
  const sizesOk = v.columns.length === spec.cols && v.columns.every((c) => c.length === spec.rows) &&
                  v.stock.length === spec.stock && cards.length === spec.cols * spec.rows + spec.stock;
  check(multiset(cards) === multiset(expected) && sizesOk,
        `${v.code} ${v.variant}: ${spec.cols}x${spec.rows} + stock ${v.stock.length}, ${cards.length} cards, multiset ok`);
}
console.error(failures ? `${failures} check(s) FAILED` : "all checks passed");

// One vector per block, arrays of cards/words on a single line.
const text = JSON.stringify({ spec: "docs/deals.md", vectors }, null, 1)
  .replace(/\[\s*([^[\]{}]*?)\s*\]/g, (_, inner) => "[" + inner.split(/,\s*/).join(", ") + "]");
process.stdout.write(text + "\n");
process.exit(failures ? 1 : 0);
