/**
 * "A new build" without a second `next build` (minutes on the test machine): a directory
 * where everything is this checkout's (symlinks) but `.next`, a copy of the production
 * build in which the build id and every server action id are replaced by new ones — what
 * a real rebuild changes for a page left open (decision 0048). Chunk file names stay the
 * same (a real build renames the chunks whose content changed), so a browser must not
 * serve them from its cache: a spec routes its requests (Playwright then skips the cache).
 */
import { randomBytes, randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface SecondBuild {
  /** The directory to start server.ts in (startAppServer's `cwd`). */
  dir: string;
  buildId: string;
  /** Old action id → new. */
  actions: Map<string, string>;
  remove(): void;
}

/** Every file under `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

export function makeSecondBuild(root = process.cwd()): SecondBuild {
  const dir = mkdtempSync(path.join(tmpdir(), "nextup-build2-"));
  for (const name of readdirSync(root)) {
    if (name === ".next" || name === ".data") continue;
    symlinkSync(path.join(root, name), path.join(dir, name));
  }
  const dist = path.join(dir, ".next");
  // The compiler's cache and a development server's output are not needed to serve.
  const skipped = new Set(["cache", "dev", "trace"].map((name) => path.join(root, ".next", name)));
  cpSync(path.join(root, ".next"), dist, { recursive: true, filter: (src) => !skipped.has(src) });

  const oldBuild = readFileSync(path.join(dist, "BUILD_ID"), "utf8").trim();
  const buildId = randomUUID();
  const manifest = JSON.parse(readFileSync(path.join(dist, "server", "server-reference-manifest.json"), "utf8")) as {
    node: Record<string, unknown>;
    edge?: Record<string, unknown>;
  };
  // An id's first two hex digits say which arguments it uses (Next.js reads them on the client): kept.
  const actions = new Map(
    [...Object.keys(manifest.node), ...Object.keys(manifest.edge ?? {})].map((id) => [
      id,
      id.slice(0, 2) +
        randomBytes(id.length)
          .toString("hex")
          .slice(0, id.length - 2),
    ]),
  );
  const swaps: [string, string][] = [[oldBuild, buildId], ...actions];
  // Ids are ASCII: replaced in the bytes read as latin1, so binary files come through unchanged.
  for (const file of filesUnder(dist)) {
    const text = readFileSync(file, "latin1");
    let next = text;
    for (const [from, to] of swaps) if (next.includes(from)) next = next.split(from).join(to);
    if (next !== text) writeFileSync(file, next, "latin1");
  }
  // Directories named after the build (.next/static/<build id>/).
  for (const entry of readdirSync(dist, { recursive: true })
    .map(String)
    .sort((a, b) => b.length - a.length)) {
    const base = path.basename(entry);
    if (base.includes(oldBuild) && statSync(path.join(dist, entry)).isDirectory())
      renameSync(path.join(dist, entry), path.join(dist, path.dirname(entry), base.split(oldBuild).join(buildId)));
  }
  return { dir, buildId, actions, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
