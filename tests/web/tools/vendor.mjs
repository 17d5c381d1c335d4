// Copies the browser client's runtime libraries (Preact, its hooks, htm; uPlot for the operator
// console's charts) from their npm packages
// into qipai/web/vendor/ as ES modules, with their licence files, so that `uv run qipai serve`
// needs no Node and no build step. `--check` fails if the vendored copies differ from the
// locked packages (CI runs it).
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const mod = (p) => join(root, "node_modules", p);
const out = join(root, "qipai", "web", "vendor");

/** What is copied: [source under node_modules, file in vendor/]. */
const FILES = [
  ["preact/dist/preact.module.js", "preact.module.js"],
  ["preact/hooks/dist/hooks.module.js", "hooks.module.js"],
  ["preact/LICENSE", "LICENSE-preact"],
  ["htm/dist/htm.module.js", "htm.module.js"],
  ["htm/LICENSE", "LICENSE-htm"],
  ["uplot/dist/uPlot.esm.js", "uPlot.esm.js"],
  ["uplot/dist/uPlot.min.css", "uPlot.min.css"],
  ["uplot/LICENSE", "LICENSE-uplot"],
];

// The source-map comments point at files that are not vendored: dropped. Bare imports of
// "preact" become the vendored file's path, so the page needs no import map (an inline script
// the server's Content-Security-Policy would refuse). Nothing else changes.
const strip = (text) => text
  .replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, "\n")
  .replace(/from\s*"preact"/g, 'from"./preact.module.js"');

// Type declarations beside the vendored files, so `tsc --checkJs` types them as the packages.
const SHIMS = [
  ["preact.module.d.ts", 'export * from "preact";\n'],
  ["hooks.module.d.ts", 'export * from "preact/hooks";\n'],
  ["htm.module.d.ts", 'import htm from "htm";\nexport default htm;\n'],
  ["uPlot.esm.d.ts", 'import uPlot from "uplot";\nexport default uPlot;\n'],
];

const versions = ["preact", "htm", "uplot"].map((p) => `${p} ${JSON.parse(readFileSync(mod(`${p}/package.json`), "utf8")).version}`);
const header = `Vendored by tests/web/tools/vendor.mjs from the npm packages (${versions.join(", ")}).\nLicences: preact MIT (LICENSE-preact), htm Apache-2.0 (LICENSE-htm), uplot MIT (LICENSE-uplot).\n`;
const check = process.argv.includes("--check");
let stale = [];
const shim = Object.fromEntries(SHIMS);
for (const [src, dst] of [...FILES, [null, "VERSIONS"], ...SHIMS.map(([name]) => ["shim", name])]) {
  const text = src === null ? header : src === "shim" ? shim[dst] : src.endsWith(".js") ? strip(readFileSync(mod(src), "utf8")) : readFileSync(mod(src), "utf8");
  const path = join(out, dst);
  if (check) {
    if (!existsSync(path) || readFileSync(path, "utf8") !== text) stale.push(dst);
  } else writeFileSync(path, text);
}
if (stale.length) {
  console.error(`qipai/web/vendor is not what the locked packages hold: ${stale.join(", ")} (run npm run vendor)`);
  process.exit(1);
}
console.log(check ? "vendor: current" : `vendor: wrote ${FILES.length + 1 + SHIMS.length} files`);
