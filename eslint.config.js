// ESLint for the browser client (qipai/web) and its unit tests (tests/web): ES modules, browser
// globals, every name defined (no-undef), nothing unused.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["qipai/web/vendor/**", "node_modules/**", "test-output/**", "qipai/web/fairness/**"] },
  js.configs.recommended,
  {
    files: ["qipai/web/**/*.js"],
    languageOptions: { ecmaVersion: 2025, sourceType: "module", globals: { ...globals.browser } },
    rules: {
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_", caughtErrors: "none" }],
      "max-len": ["error", { code: 200, ignoreTemplateLiterals: true, ignoreStrings: true, ignoreComments: false }],
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
  {
    files: ["tests/web/**/*.js", "tests/web/**/*.mjs", "eslint.config.js", "vitest.config.js"],
    languageOptions: { ecmaVersion: 2025, sourceType: "module", globals: { ...globals.node, ...globals.browser } },
    rules: { "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrors: "none" }] },
  },
];
