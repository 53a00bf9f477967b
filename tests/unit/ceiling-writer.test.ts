/**
 * The counter's ceilings (table "CounterCeiling", docs/decisions/0006) have one writer:
 * lib/adapters/postgres/counter-ledger.server.ts (decision 0026). Any other statement that
 * inserts, updates or deletes a ceiling, in SQL or through Prisma, fails here.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const LEDGER = "lib/adapters/postgres/counter-ledger.server.ts";
const WRITES = [/\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"CounterCeiling"/i, /\.counterCeiling\.(?:create|update|upsert|delete)/];

/** The source the app and its scripts run (tests may set a ceiling up or read one). */
function sources(): string[] {
  const found = ["server.ts"];
  for (const dir of ["lib", "app", "scripts"]) {
    for (const f of readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })) {
      if (/\.(ts|tsx|mts|mjs)$/.test(f) && !f.includes("generated")) found.push(path.posix.join(dir, f.split(path.sep).join("/")));
    }
  }
  return found;
}

describe("the counter ledger owns the ceilings", () => {
  it("no module but the ledger writes a ceiling", () => {
    const files = sources();
    expect(files).toContain(LEDGER);
    const writers = files.filter((f) => WRITES.some((w) => w.test(readFileSync(path.join(root, f), "utf8"))));
    expect(writers).toEqual([LEDGER]);
  });
});
