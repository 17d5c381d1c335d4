import { defineConfig } from "vitest/config";

// Unit tests of the browser client: renderers against golden views (real state messages from the
// real engine, written by tests/web/golden.py), the socket's reconnect and resend, i18n, formats.
export default defineConfig({
  test: {
    environment: "happy-dom",
    include: ["tests/web/**/*.test.js"],
    globalSetup: ["tests/web/setup-golden.js"],
    testTimeout: 20000,
  },
});
