// node:assert/strict in Chromium (see test.js): the assertions the test files use, with
// node's strict meanings: equal is Object.is, deepEqual compares own enumerable keys and
// prototypes, recursively. A method the files start using must be added here too (the
// browser run then fails on it, never passes silently).

export class AssertionError extends Error {
  constructor(message) {
    super(message);
    this.name = "AssertionError";
  }
}

const show = (value) => {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};

function same(a, b) {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (Array.isArray(a) && a.length !== b.length) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && same(a[key], b[key]));
}

function fail(message, fallback) {
  throw message instanceof Error ? message : new AssertionError(message ?? fallback);
}

export function ok(value, message) {
  if (!value) fail(message, `expected a truthy value, got ${show(value)}`);
}

export function equal(actual, expected, message) {
  if (!Object.is(actual, expected)) fail(message, `expected ${show(expected)}, got ${show(actual)}`);
}

export function notEqual(actual, expected, message) {
  if (Object.is(actual, expected)) fail(message, `expected anything but ${show(expected)}`);
}

export function deepEqual(actual, expected, message) {
  if (!same(actual, expected)) fail(message, `expected ${show(expected)}, got ${show(actual)}`);
}

export function notDeepEqual(actual, expected, message) {
  if (same(actual, expected)) fail(message, `expected anything but ${show(expected)}`);
}

export function match(text, pattern, message) {
  if (typeof text !== "string" || !pattern.test(text)) fail(message, `${show(text)} does not match ${pattern}`);
}

export function throws(fn, message) {
  try {
    fn();
  } catch {
    return;
  }
  fail(typeof message === "string" ? message : undefined, "expected the function to throw");
}

const assert = Object.assign((value, message) => ok(value, message), {
  AssertionError,
  ok,
  equal,
  notEqual,
  deepEqual,
  notDeepEqual,
  strictEqual: equal,
  notStrictEqual: notEqual,
  deepStrictEqual: deepEqual,
  notDeepStrictEqual: notDeepEqual,
  match,
  throws,
  fail: (message) => fail(message, "failed"),
});

export default assert;
