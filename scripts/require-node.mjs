#!/usr/bin/env node
/**
 * Refuses to run on a Node.js outside package.json's `engines.node`: one sentence on stderr,
 * exit 1. npm only warns (EBADENGINE) about the Node.js running npm, and where the pinned
 * `node-<platform>` package is missing (Apple-silicon macOS, `--omit=optional`, a mirror
 * without it) the system's Node.js would otherwise run the project silently (decision 0035).
 *
 * Imported first by every entry point (server.ts, scripts/org.ts, scripts/db-migrate.ts,
 * scripts/db-new-migration.ts), and run on its own before `tsx watch` (which would keep
 * waiting after its child exits). Plain syntax and no dependencies: it must itself run on
 * the old Node.js it refuses.
 *
 * NEXTUP_ALLOW_ANY_NODE=1 lets it run anyway, with a warning: for `npm run bench:runtimes`,
 * which measures the project on another Node.js on purpose.
 */
import { readFileSync } from "node:fs";

const FORM = /^\^(\d+)(?:\.(\d+))?(?:\.(\d+))?$/;

/** `engines.node` as alternatives of `^MAJOR[.MINOR[.PATCH]]`; null for anything else. */
export function parseRange(text) {
  if (typeof text !== "string") return null;
  const parts = text.split("||").map(function (p) {
    return p.trim();
  });
  const range = [];
  for (const part of parts) {
    const m = FORM.exec(part);
    if (!m) return null;
    range.push({ major: Number(m[1]), minor: Number(m[2] || 0), patch: Number(m[3] || 0), text: part.slice(1) });
  }
  return range;
}

/** Whether `version` ("20.20.2", "v24.21.0") falls in one of the range's alternatives. */
export function accepts(range, version) {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!m) return false;
  const v = [Number(m[1]), Number(m[2]), Number(m[3])];
  return range.some(function (r) {
    if (v[0] !== r.major) return false;
    if (v[1] !== r.minor) return v[1] > r.minor;
    return v[2] >= r.patch;
  });
}

/** The one sentence a refused start prints. */
export function refusal(range, version) {
  const wanted = range
    .map(function (r) {
      return r.text === String(r.major) ? String(r.major) : r.text + " or a later " + r.major;
    })
    .join(" or ");
  const major = range[0].major;
  return (
    "Nextup needs Node.js " +
    wanted +
    " (found " +
    version +
    "): install Node.js " +
    major +
    " (https://nodejs.org, or `brew install node@" +
    major +
    "` on macOS), or start it through npm (`npm start`, `npm run dev`), which on Linux, Intel macOS and Windows x64 runs the Node.js " +
    major +
    " that `npm install` puts in node_modules."
  );
}

/** What to print and whether to stop, for this process's Node.js and environment. */
export function verdict(engines, version, env) {
  const range = parseRange(engines);
  if (!range) {
    return { exit: true, message: 'Nextup cannot check its Node.js: package.json engines.node is "' + engines + '", not ^MAJOR[.MINOR[.PATCH]] (|| …).' };
  }
  if (accepts(range, version)) return { exit: false, message: null };
  if (env.NEXTUP_ALLOW_ANY_NODE === "1") {
    return {
      exit: false,
      message: "Warning: running on Node.js " + version + ", outside " + engines + ", because NEXTUP_ALLOW_ANY_NODE=1 (for benchmarks only).",
    };
  }
  return { exit: true, message: refusal(range, version) };
}

function enginesNode() {
  try {
    return JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).engines.node;
  } catch (error) {
    return "(unreadable: " + error.message + ")";
  }
}

const found = verdict(enginesNode(), process.versions.node, process.env);
if (found.message) process.stderr.write(found.message + "\n");
if (found.exit) process.exit(1);
