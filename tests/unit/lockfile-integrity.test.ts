/**
 * package-lock.json: every installed package carries the registry's sha512 integrity hash,
 * so `npm ci` checks each tarball it downloads, including the other platforms' optional
 * binaries that scripts/lockfile-platforms.mjs adds (it fills the hash in from the registry).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
}
const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as { lockfileVersion: number; packages: Record<string, LockEntry> };

describe("package-lock.json", () => {
  it("is lockfile version 3 (its `packages` map is the whole lock)", () => {
    expect(lock.lockfileVersion).toBe(3);
  });

  it("has a sha512 integrity for every package entry (all but the project itself and links)", () => {
    const entries = Object.entries(lock.packages).filter(([key, entry]) => key !== "" && !entry.link);
    expect(entries.length).toBeGreaterThan(100);
    const without = entries.filter(([, entry]) => !/^sha512-[A-Za-z0-9+/]+=*$/.test(entry.integrity ?? "")).map(([key, entry]) => `${key}@${entry.version}`);
    expect(without).toEqual([]);
  });
});
