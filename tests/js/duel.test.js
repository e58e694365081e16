// duel/state.js: the duel panel's reducer, its clocks and the queue's pace, pure.
import { test } from "node:test";
import assert from "node:assert/strict";

import { clockText, fromDuel, nextAskMs, outcomeOf, reduce, seatClock } from "../../static/js/duel/state.js";

function seat(index, extra = {}) {
  return {
    seat: index, name: `p${index}`, rating: 1000, home: 0, stock: 64, score: 0, moves: 0,
    version: 0, status: "active", time_ms: null, connected: true, forfeited: false, place: null,
    replay_game_id: null,
    ...extra,
  };
}

function duel(extra = {}) {
  return {
    id: "d", state: "running", rated: true, variant: "forty-thieves", time_control: 600,
    started_at: "2026-12-02T12:00:00+00:00", ends_at: "2026-12-02T12:10:00+00:00", ended_at: null,
    server_now: "2026-12-02T12:01:00+00:00", outcome: "", role: "player", seat: 0, game_id: "g",
    commitment: null, code: null, grace_seconds: 60, seats: [seat(0), seat(1)], ...extra,
  };
}

const T = Date.parse("2026-12-02T12:01:00+00:00");

test("a progress message updates the seat's counts and an older one is ignored", () => {
  let state = fromDuel(duel(), T);
  const progress = { type: "progress", seat: 1, home: 9, stock: 40, score: 45, moves: 30, version: 31, status: "active", time_ms: null };
  state = reduce(state, progress, T);
  assert.deepEqual([state.duel.seats[1].home, state.duel.seats[1].stock, state.duel.seats[1].score], [9, 40, 45]);
  state = reduce(state, { ...progress, version: 12, home: 2 }, T);
  assert.equal(state.duel.seats[1].home, 9);
  assert.equal(state.duel.seats[0].home, 0);
});

test("presence, the end and a rematch offer", () => {
  let state = fromDuel(duel(), T);
  state = reduce(state, { type: "presence", seat: 1, connected: false }, T);
  assert.equal(state.duel.seats[1].connected, false);
  state = reduce(state, { type: "duel_end", outcome: "forfeit", places: [1, 2] }, T);
  assert.deepEqual(outcomeOf(state.duel), { result: "won", forfeit: true });
  state = reduce(state, { type: "rematch", duel_id: "r" }, T);
  assert.equal(state.rematchId, "r");
  assert.equal(outcomeOf({ ...state.duel, seat: null }).result, "decided");
  assert.equal(outcomeOf(duel()), null);
});

test("the clocks count by the server's time, whatever the client's clock says", () => {
  const clientAhead = T + 5 * 60_000; // the visitor's clock is five minutes fast
  const state = fromDuel(duel(), clientAhead);
  assert.deepEqual(seatClock(state, state.duel.seats[0], clientAhead), { kind: "left", ms: 9 * 60_000 });
  assert.deepEqual(seatClock(state, seat(0, { status: "won", time_ms: 61_000 }), clientAhead), { kind: "done", ms: 61_000 });
  const before = fromDuel(duel({ server_now: "2026-12-02T11:59:57+00:00" }), T);
  assert.deepEqual(seatClock(before, before.duel.seats[0], T), { kind: "starts", ms: 3000 });
  const flagged = fromDuel(duel({ server_now: "2026-12-02T12:11:00+00:00" }), T);
  assert.equal(seatClock(flagged, flagged.duel.seats[0], T).ms, 0);
});

test("a clock reads minutes and seconds", () => {
  assert.equal(clockText(9 * 60_000 + 4_200), "9:05");
  assert.equal(clockText(61_900, { up: false }), "1:01");
  assert.equal(clockText(-5), "0:00");
});

test("the queue asks every 2 s, waits as a refusal says, and stops once paired", () => {
  assert.equal(nextAskMs({ waiting: true }, null), 2000);
  assert.equal(nextAskMs({ code: "rate_limited" }, 7), 7000);
  assert.equal(nextAskMs({ duel: "/duels/x/" }, null), null);
  assert.equal(nextAskMs({ code: "account_required" }, null), null);
});
