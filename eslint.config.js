// eslint for the board's scripts (static/js, ES modules run by the browser as served) and
// their unit tests (tests/js, run by node --test and in Chromium): the recommended rules,
// and for every file a few more that the code already keeps and that catch real mistakes
// (== coercing, a binding meant to stay put being reassigned, !!x and +x for conversions).
// The types are tsc's (tsconfig.json); the layout is left to the editor.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "staticfiles/", ".venv/", ".cache/", "test-results/", "static/dist/"] },
  js.configs.recommended,
  {
    rules: {
      eqeqeq: "error",
      "no-var": "error",
      "prefer-const": "error",
      "no-implicit-coercion": "error",
      // An argument named _x is there for its signature (a method a subclass gives).
      "no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["static/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    files: ["tests/**/*.js", "tests/**/*.mjs", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
];
