// queue.js: the player's actions go out one at a time, each stamped with its version,
// against a fake socket (and a fake clock for a retry's wait).
import { test } from "node:test";
import assert from "node:assert/strict";

import { ActionQueue, MAX_QUEUED } from "../../static/js/board/queue.js";

/** A socket that records what it is asked to send; ids id1, id2, ... */
function fakeSocket(record = (message) => message) {
  const sent = [];
  const act = (message) => {
    sent.push(record(message));
    return `id${sent.length}`;
  };
  return { sent, socket: { isOpen: true, act } };
}

test("it sends one action at a time, stamped with its version", () => {
  const { sent, socket } = fakeSocket();
  let version = 7;
  const refused = [];
  const queue = new ActionQueue(socket, { canSend: () => true, version: () => version }, 2);
  queue.enqueue({ type: "move", move: "s" });
  queue.enqueue({ type: "move", move: "t1-f1" });
  queue.enqueue({ type: "resign" });
  queue.enqueue({ type: "undo" }, { onRefused: () => refused.push("undo") });
  assert.equal(sent.length, 1); // the second waits for the first's answer
  const settled = queue.answered({ id: "id1" });
  version = 8;
  queue.answered({ id: "nobody" });
  queue.pump();
  queue.answered({ id: "id2" });
  queue.pump();
  assert.deepEqual(settled.message, { type: "move", move: "s" });
  assert.deepEqual(sent, [
    { type: "move", move: "s", version: 7 },
    { type: "move", move: "t1-f1", version: 8 },
    { type: "resign" }, // a resignation names no version
  ]);
  assert.deepEqual(refused, ["undo"]); // beyond the queue's room: dropped, and told so
});

test("it chooses a deferred action when its turn comes", () => {
  const { sent, socket } = fakeSocket();
  let version = 1;
  let top = "AS";
  const dropped = [];
  const queue = new ActionQueue(socket, { canSend: () => true, version: () => version });
  assert.equal(queue.busy, false);
  queue.enqueue({ type: "move", move: "t1-f1" });
  // Two taps while the first is on its way: chosen only when their turn comes.
  queue.enqueue(() => ({ type: "move", move: `${top}?` }));
  queue.enqueue(() => null, { onRefused: () => dropped.push("nothing left") });
  assert.equal(queue.busy, true);
  assert.equal(sent.length, 1);
  top = "2S";
  version = 2;
  queue.answered({ id: "id1" });
  queue.pump();
  queue.answered({ id: "id2" });
  queue.pump();
  assert.equal(queue.busy, false);
  assert.deepEqual(sent, [
    { type: "move", move: "t1-f1", version: 1 },
    { type: "move", move: "2S?", version: 2 }, // the board after the first answer
  ]);
  assert.deepEqual(dropped, ["nothing left"]); // a tap with nothing to do sends nothing
});

test("a rate-limited action goes out again first after the wait", () => {
  const { sent, socket } = fakeSocket();
  const timers = [];
  const later = (fn, ms) => timers.push({ fn, ms });
  const queue = new ActionQueue(socket, { canSend: () => true, version: () => 4, later });
  queue.enqueue({ type: "move", move: "t1-f1" });
  queue.enqueue({ type: "move", move: "s" });
  const item = queue.answered({ id: "id1" });
  queue.retry(item, 130); // refused: rate_limited, retry_after 0.13
  queue.pump();
  assert.equal(sent.length, 1); // nothing goes out during the wait
  assert.equal(timers[0].ms, 130);
  timers[0].fn();
  assert.equal(sent.length, 2);
  queue.answered({ id: "id2" });
  queue.pump();
  assert.deepEqual(
    sent.map((m) => m.move),
    ["t1-f1", "t1-f1", "s"], // the same, first
  );
});

test("the queue holds its taps while a sync is awaited", () => {
  // An answer that skips a version asks for the whole state: a tap queued meanwhile is
  // chosen on that state, not on the board it is about to replace.
  const { sent, socket } = fakeSocket();
  let version = 4;
  let syncing = false;
  let board = "old";
  const chosenOn = [];
  const queue = new ActionQueue(socket, { canSend: () => true, version: () => version, syncing: () => syncing });
  queue.enqueue({ type: "move", move: "w-f1" });
  queue.enqueue(() => {
    chosenOn.push(board);
    return { type: "move", move: "w-f2" };
  });
  queue.answered({ id: "id1" });
  syncing = true; // the answer's version skipped one: a sync is asked
  queue.pump();
  assert.deepEqual({ sent: sent.length, busy: queue.busy, chosen: chosenOn.length }, { sent: 1, busy: true, chosen: 0 });
  board = "synced";
  version = 7;
  syncing = false; // the state came
  queue.pump();
  assert.deepEqual(chosenOn, ["synced"]);
  assert.deepEqual(
    sent.map((m) => [m.move, m.version]),
    [
      ["w-f1", 4],
      ["w-f2", 7],
    ],
  );
});

test("a burst of a hundred taps on a slow server waits whole", () => {
  // 100 taps at 8 a second while the server answers one every 250 ms: 60 still wait at
  // the last tap. None is dropped (it was: past 40 waiting, and the taps after a dropped
  // draw then acted on other cards than the player's).
  const { sent, socket } = fakeSocket((m) => m.move);
  const queue = new ActionQueue(socket, { canSend: () => true, version: () => 0 });
  const dropped = [];
  for (let tap = 0; tap < 100; tap += 1) {
    queue.enqueue({ type: "move", move: `m${tap}` }, { onRefused: () => dropped.push(tap) });
    if (tap % 2 === 1) queue.answered({ id: `id${sent.length}` }); // one answer per 2 taps
    queue.pump();
  }
  const waiting = queue.waiting.length;
  while (queue.busy) {
    queue.answered({ id: `id${sent.length}` });
    queue.pump();
  }
  assert.deepEqual(dropped, []);
  assert.ok(waiting >= 45, `${waiting} waiting`);
  assert.deepEqual(
    sent,
    Array.from({ length: 100 }, (_, tap) => `m${tap}`),
  ); // each in turn, in order
  assert.ok(MAX_QUEUED >= 120); // 10 taps a second for 10 s: the socket's pace (40 + 8 x 10)
});

test("a full queue drops every later tap until it has caught up", () => {
  // Past the limit, a tap is dropped, and so is every tap after it until nothing waits:
  // no tap is worked out after one dropped before it, on a board the player did not mean.
  const { sent, socket } = fakeSocket((m) => m.move);
  const queue = new ActionQueue(socket, { canSend: () => true, version: () => 0 }, 3);
  const dropped = [];
  const tap = (name) => queue.enqueue({ type: "move", move: name }, { onRefused: () => dropped.push(name) });
  const answer = () => {
    queue.answered({ id: `id${sent.length}` });
    queue.pump();
  };
  for (const name of ["a", "b", "c", "d"]) tap(name); // a in flight, b c d wait
  tap("e"); // the fourth waiting: over the limit
  answer(); // b goes, c d wait: room again, but e was dropped
  tap("f");
  answer();
  answer(); // c, then d go: nothing waits
  tap("g");
  answer();
  answer();
  assert.deepEqual(dropped, ["e", "f"]);
  assert.deepEqual(sent, ["a", "b", "c", "d", "g"]);
});
