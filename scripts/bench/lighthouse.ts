/**
 * Lighthouse 13.5 (through npx, not a dependency) against Debian's Chromium, on the pages a
 * guest sees: the board as it fills (40 open orders: 30 preparing, 10 ready) and the
 * customer's page. Lighthouse's default mobile settings (simulated slow 4G, 4× CPU), medians
 * of `--runs`: CLS (good ≤ 0.1), LCP (good ≤ 2.5 s), TBT, and the accessibility score. Not a
 * test: it prints figures.
 *
 *   npm run build && npm run bench:lighthouse [-- --runs 3]
 *
 * Starts its own database, Redis key prefix and production server; cleans up after.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createTestDatabase } from "../../tests/support/db";
import { SHARED_SERVER_ENV, startAppServer, testKeyPrefix } from "../../tests/support/app-server";
import { provisionTenants } from "../../tests/support/tenants";
import { benchArgs, machine, median, round2, runBench } from "./common";

const args = benchArgs({ runs: 3 });
const SLUG = "lighthouse";
const CHROME_FLAGS =
  "--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync";

interface Run {
  cls: number;
  lcpMs: number;
  tbtMs: number;
  a11y: number;
}

async function lighthouse(url: string, dir: string, n: number): Promise<Run> {
  const out = path.join(dir, `lh-${n}.json`);
  await promisify(execFile)(
    "npx",
    [
      "--yes",
      "lighthouse@13.5.0",
      url,
      "--quiet",
      "--output=json",
      `--output-path=${out}`,
      "--only-categories=performance,accessibility",
      `--chrome-flags=${CHROME_FLAGS}`,
    ],
    { env: { ...process.env, CHROME_PATH: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" }, maxBuffer: 64 * 1024 * 1024 },
  );
  const report = JSON.parse(await readFile(out, "utf8")) as {
    audits: Record<string, { numericValue?: number }>;
    categories: { accessibility: { score: number } };
  };
  return {
    cls: report.audits["cumulative-layout-shift"]!.numericValue!,
    lcpMs: report.audits["largest-contentful-paint"]!.numericValue!,
    tbtMs: report.audits["total-blocking-time"]!.numericValue!,
    a11y: report.categories.accessibility.score * 100,
  };
}

runBench(async () => {
  const db = await createTestDatabase("lighthouse");
  const dir = await mkdtemp(path.join(tmpdir(), "nextup-lighthouse-"));
  const server = await startAppServer({ databaseUrl: db.url, keyPrefix: testKeyPrefix("lighthouse"), env: SHARED_SERVER_ENV });
  try {
    const tenant = (await provisionTenants(db.url, [{ slug: SLUG, name: "Lighthouse Noodles", timeZone: "Europe/Berlin" }]))[SLUG]!;
    const api = async (p: string, key: string, json: unknown) => {
      const res = await fetch(`${server.url}/api/v1/orgs/${SLUG}${p}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(json),
      });
      if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string };
    };
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await api("/orders", tenant.apiKeys.cashier, { items: [{ name: "Noodles", qty: 1 + (i % 3) }] })).id);
    for (const id of ids.slice(0, 10)) await api(`/orders/${id}/status`, tenant.apiKeys.kitchen, { status: "READY" });

    const pages = { board: `${server.url}/${SLUG}/board?lang=en`, customer: `${server.url}/${SLUG}/o/${ids[25]}?lang=en` };
    console.log(`machine: ${machine()}; Lighthouse 13.5.0, mobile defaults (simulated), ${args.runs} runs each, medians`);
    for (const [name, url] of Object.entries(pages)) {
      const runs: Run[] = [];
      for (let n = 0; n < args.runs; n++) runs.push(await lighthouse(url, dir, n));
      const m = (f: keyof Run) => round2(median(runs.map((r) => r[f])));
      console.log(
        `${name.padEnd(9)} CLS ${m("cls")} (runs ${runs.map((r) => round2(r.cls)).join(", ")}) · LCP ${m("lcpMs")} ms (runs ${runs.map((r) => Math.round(r.lcpMs)).join(", ")}) · TBT ${m("tbtMs")} ms · accessibility ${m("a11y")}`,
      );
    }
  } finally {
    await server.stop();
    await db.drop();
    await rm(dir, { recursive: true, force: true });
  }
});
