import { tmpdir } from "node:os";
import { join } from "node:path";
import { URL, fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The renderer imports the card room's modules at the paths the server serves them from
// ("/ui/html.js" …): here they resolve to the client's source, qipai/web/.
const WEB = fileURLToPath(new URL("../../../../web/", import.meta.url));

export default defineConfig({
  // its cache stays out of the package (the repository's own runs keep theirs in node_modules/)
  cacheDir: join(tmpdir(), "qipai-sangong-vitest"),
  resolve: { alias: [{ find: /^\/(ui|i18n|games|vendor|fairness)\//, replacement: `${WEB}$1/` }] },
  test: {
    root: fileURLToPath(new URL(".", import.meta.url)),
    environment: "happy-dom",
    include: ["*.test.js"],
    testTimeout: 20000,
  },
});
