// node:test in Chromium, for tests/browser/test_js_cases.py: the page's import map sends
// `import { test } from "node:test"` here. test() only collects a case; run() then runs
// the cases one after another, as node --test does within a file, and reports each.
// Only what the test files use is here: test(name, fn) with a sync or async fn.

const cases = [];

/** @param {string} name @param {() => unknown} fn */
export function test(name, fn) {
  cases.push({ name, fn });
}

export { test as it };

/** Run the cases collected so far (and forget them): [{name, error}], error null on a pass. */
export async function run() {
  const results = [];
  for (const { name, fn } of cases.splice(0)) {
    try {
      await fn();
      results.push({ name, error: null });
    } catch (err) {
      results.push({ name, error: err instanceof Error ? `${err.message}\n${err.stack}` : String(err) });
    }
  }
  return results;
}
