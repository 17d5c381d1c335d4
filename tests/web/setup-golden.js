// vitest global setup: the golden views the renderer tests read. When GOLDEN_DIR is set (the
// pytest fixture in tests/web/conftest.py writes them and runs vitest), that directory is used;
// otherwise tests/web/golden.py writes them now from the real engine into test-output/golden.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";

export default function setup(project) {
  let dir = process.env.GOLDEN_DIR;
  if (!dir) {
    dir = resolve("test-output", "golden");
    mkdirSync(dir, { recursive: true });
    execFileSync("uv", ["run", "python", "tests/web/golden.py", dir], { stdio: "inherit" });
  }
  if (!existsSync(join(dir, "pokdeng.json"))) throw new Error(`no golden views in ${dir}`);
  project.provide("goldenDir", dir);
}
