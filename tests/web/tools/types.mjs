// Generates the browser client's JSDoc types from the protocol's JSON Schemas (docs/schema/,
// written by `uv run qipai schema --write` from the server's pydantic models): every game's view
// and actions and the WebSocket messages both ways become qipai/web/types/<name>.d.ts, which the client
// imports in its JSDoc (`import("../types/messages.server").…`), so `tsc --checkJs` checks the
// client against what the server sends. `--check` fails if a generated file is not current
// (CI runs it beside vendor:check).
import { readFileSync, readdirSync, writeFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { compile } from "json-schema-to-typescript";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const schemas = join(root, "docs", "schema");
const out = join(root, "qipai", "web", "types");
const check = process.argv.includes("--check");

const wanted = readdirSync(schemas)
  .filter((f) => f.endsWith(".view.json") || f.endsWith(".actions.json") || f.startsWith("messages."))
  .sort();
let stale = 0;
for (const file of wanted) {
  const schema = JSON.parse(readFileSync(join(schemas, file), "utf8"));
  const name = file.replace(/\.json$/, "");
  const text = await compile(schema, schema.title || name, {
    bannerComment: `// Generated from docs/schema/${file} by tests/web/tools/types.mjs (npm run types). Do not edit.`,
    additionalProperties: false,
    unreachableDefinitions: true,
    strictIndexSignatures: false,
    style: { printWidth: 110 },
  });
  const target = join(out, `${name}.d.ts`);
  if (check) {
    if (!existsSync(target) || readFileSync(target, "utf8") !== text) {
      console.error(`qipai/web/types/${name}.d.ts is not current: npm run types`);
      stale += 1;
    }
  } else {
    writeFileSync(target, text);
  }
}
if (stale) process.exit(1);
console.log(check ? `qipai/web/types: ${wanted.length} files current` : `wrote ${wanted.length} files to qipai/web/types`);
