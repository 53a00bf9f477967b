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
 * Every entry without an integrity hash (those it adds, and any earlier one) gets the
 * registry's `dist.integrity` (`npm view`, so the configured registry and its auth), so
 * `npm ci` checks the tarball on the platform that installs it. If the registry does not
 * answer for one, the script stops and leaves the lock unchanged.
 *
 *   node scripts/lockfile-platforms.mjs      # after any `npm install` that changed the lock
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";

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
/** The registry's sha512 integrity of name@version. */
async function integrityOf(name, version) {
  const { stdout } = await promisify(execFile)("npm", ["view", `${name}@${version}`, "dist.integrity"], { encoding: "utf8" });
  const integrity = stdout.trim();
  if (!/^sha512-[A-Za-z0-9+/]+=*$/.test(integrity)) throw new Error(`npm view ${name}@${version} dist.integrity answered "${integrity}"`);
  return integrity;
}

const missing = Object.entries(pkgs).filter(([key, pkg]) => key !== "" && !pkg.link && !pkg.integrity);
const failed = [];
// A few at a time: one `npm view` process each.
for (let i = 0; i < missing.length; i += 4) {
  await Promise.all(
    missing.slice(i, i + 4).map(async ([key, pkg]) => {
      const name = pkg.name ?? key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
      try {
        const { version, ...rest } = pkg;
        pkgs[key] = { version, integrity: await integrityOf(name, version), ...rest };
      } catch (error) {
        failed.push(`${name}@${pkg.version}: ${error.message.trim().split("\n")[0]}`);
      }
    }),
  );
}
if (failed.length > 0) {
  console.error(
    `lockfile-platforms: no integrity from the registry for ${failed.length} entr${failed.length === 1 ? "y" : "ies"}; package-lock.json left unchanged:\n  ${failed.join("\n  ")}`,
  );
  process.exit(1);
}

lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
writeFileSync(path, JSON.stringify(lock, null, 2) + "\n");
console.error(
  `lockfile-platforms: ${added} entr${added === 1 ? "y" : "ies"} added, ${missing.length} integrity hash${missing.length === 1 ? "" : "es"} filled in`,
);
