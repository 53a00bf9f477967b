/**
 * The session secret one box keeps in its data folder, and how `npm run org` tells a
 * running embedded PostgreSQL from a stale postmaster.pid (decision 0047).
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { keptSessionSecret, runningPostgres } from "@/lib/server/dev/dev-services.server";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const fresh = () => (dir = mkdtempSync(path.join(tmpdir(), "nextup-kept-")));

describe("the kept session secret", () => {
  it("is generated once into a new data folder, readable by its owner only, and kept across starts", () => {
    const data = path.join(fresh(), ".data");
    const secret = keptSessionSecret(data);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(path.join(data, "session-secret")).mode & 0o777).toBe(0o600);
    expect(keptSessionSecret(data)).toBe(secret);
  });

  it("is tightened back to 0600 when a copied folder widened it", () => {
    const data = fresh();
    writeFileSync(path.join(data, "session-secret"), "x".repeat(40));
    chmodSync(path.join(data, "session-secret"), 0o644);
    expect(keptSessionSecret(data)).toBe("x".repeat(40));
    expect(statSync(path.join(data, "session-secret")).mode & 0o777).toBe(0o600);
  });

  it("replaces one too short to sign with", () => {
    const data = fresh();
    writeFileSync(path.join(data, "session-secret"), "short", { mode: 0o644 });
    const secret = keptSessionSecret(data);
    expect(secret).toHaveLength(64);
    expect(readFileSync(path.join(data, "session-secret"), "utf8")).toBe(secret);
    expect(statSync(path.join(data, "session-secret")).mode & 0o777).toBe(0o600);
  });
});

describe("a running embedded PostgreSQL, from its postmaster.pid", () => {
  const pidFile = (pid: number, port: number) => writeFileSync(path.join(dir, "postmaster.pid"), `${pid}\n${dir}\n1700000000\n${port}\n/tmp\nlocalhost\n`);

  it("none without the file, or when its pid is gone", () => {
    fresh();
    expect(runningPostgres(dir)).toBeNull();
    pidFile(2 ** 22 + 12345, 54329); // above Linux's pid_max: no such process
    expect(runningPostgres(dir)).toBeNull();
  });

  it.runIf(process.platform === "linux")("none when the pid is alive but not a PostgreSQL (a pid reused after a crash)", () => {
    fresh();
    pidFile(process.pid, 54329);
    expect(runningPostgres(dir)).toBeNull();
  });
});
