#!/usr/bin/env node
/**
 * Completes package-lock.json with the other platforms' optional binaries (Next's SWC,
 * Tailwind's oxide) when the registry this lock was written against did not serve them.
 *
 * Why: on a registry mirror that only serves this machine's platform, `npm install`
 * leaves those entries out of the lock, and `npm ci` then refuses the lock as "out of
 * sync" (it expects an entry for every optional dependency). An entry with the right
 * version, `os` and `cpu` makes `npm ci` pass here (the binary is skipped: wrong
 * platform) and still installs the right binary on macOS or Windows.
 *
 *   node scripts/lockfile-platforms.mjs      # after any `npm install` that changed the lock
 */
import { readFileSync, writeFileSync } from "node:fs";

const OS = ["android", "darwin", "freebsd", "linux", "win32", "openbsd", "netbsd", "openharmony", "sunos", "aix"];
const CPU = ["arm64", "x64", "arm", "ia32", "ppc64", "s390x", "riscv64", "loong64", "mips64el", "wasm32"];

function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p));
  if (cpu === "wasm32") return { cpu: ["wasm32"] };
  if (!os || !cpu) return null;
  const entry = { os: [os], cpu: [cpu] };
  if (os === "linux") entry.libc = [parts.includes("musl") ? "musl" : "glibc"];
  return entry;
}

const path = "package-lock.json";
const lock = JSON.parse(readFileSync(path, "utf8"));
const pkgs = lock.packages;
let added = 0;
for (const [key, pkg] of Object.entries(pkgs)) {
  for (const [dep, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const nested = `${key}/node_modules/${dep}`;
    const top = `node_modules/${dep}`;
    if (pkgs[nested] || pkgs[top]) continue;
    const platform = platformOf(dep);
    if (!platform) {
      console.error(`lockfile-platforms: cannot tell the platform of ${dep}; left out`);
      continue;
    }
    pkgs[top] = { version, ...(pkg.dev ? { dev: true } : {}), optional: true, ...platform };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
writeFileSync(path, JSON.stringify(lock, null, 2) + "\n");
console.error(`lockfile-platforms: ${added} entr${added === 1 ? "y" : "ies"} added`);
