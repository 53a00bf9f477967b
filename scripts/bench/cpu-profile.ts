/**
 * Where a server's CPU went: a `--cpu-prof` profile (BENCH_CPU_PROF) summed by area, self
 * time and inclusive time, with the production build's frames mapped back to their sources
 * through the build's source maps (Turbopack bundles our code and some packages into chunks).
 * Not a test: it prints figures.
 *
 *   npx tsx scripts/bench/cpu-profile.ts /tmp/prof/CPU….cpuprofile [--per 1234] [--top 30]
 *
 * `--per N` divides every figure by N (the orders served while profiling) into ms per order;
 * `--build DIR` reads the source maps from that copy of `.next` (a profile of an earlier build);
 * `--window A,B` counts only the samples from A to B seconds into the profile (the measured load, not start-up).
 */
import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: Frame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { per: { type: "string" }, top: { type: "string", default: "30" }, window: { type: "string" }, build: { type: "string" } },
});
const file = positionals[0];
if (!file) throw new Error("usage: cpu-profile.ts <file.cpuprofile> [--per N] [--top N]");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const per = values.per ? Number(values.per) : 1;

const maps = new Map<string, SourceMap | null>();
function sourceOf(frame: Frame): string {
  if (!frame.url.startsWith("file://") || !frame.url.includes("/.next/")) return frame.url;
  const js = values.build ? fileURLToPath(frame.url).replace(/^.*?\/\.next\//, `${path.resolve(values.build)}/`) : fileURLToPath(frame.url);
  if (!maps.has(js)) {
    const mapFile = `${js}.map`;
    maps.set(js, existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, "utf8")) as ConstructorParameters<typeof SourceMap>[0]) : null);
  }
  const entry = maps.get(js)?.findEntry(frame.lineNumber, frame.columnNumber);
  return entry && "originalSource" in entry && entry.originalSource ? entry.originalSource : frame.url;
}

/** The area a source belongs to: a package, Next.js's parts, our directories, Node.js. */
function areaOf(fn: string, source: string): string {
  if (!source) return fn.startsWith("(") ? fn : "node (native)";
  if (source.startsWith("node:")) return `node:${source.slice(5).split("/")[0]}`;
  const s = decodeURIComponent(source);
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(s);
  if (pkg) {
    const [, name, rest] = pkg;
    if (name === "next") {
      const compiled = /dist\/compiled\/([^/]+)/.exec(rest!);
      if (compiled) return `next (compiled ${compiled[1]!.replace(/^react-server-dom-.*/, "react-server-dom")})`;
      return `next (${/dist\/(?:esm\/)?(server\/[^/]+|[^/]+)/.exec(rest!)?.[1] ?? "other"})`;
    }
    return name!;
  }
  const ours = /(?:^|\/|\]\/)(app|lib|server\.ts|scripts)(\/|$)/.exec(s.replace(/^.*?\/wt-[^/]+\//, "").replace(/^\[project\]\//, ""));
  if (ours) return `ours: ${ours[1]}/${s.split(/(?:app|lib)\//)[1]?.split("/")[0] ?? ""}`;
  return `other: ${path.basename(s).slice(0, 60)}`;
}

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const areaOfNode = new Map<number, string>();
const fnOfNode = new Map<number, string>();
for (const n of profile.nodes) {
  const source = sourceOf(n.callFrame);
  areaOfNode.set(n.id, areaOf(n.callFrame.functionName, source));
  fnOfNode.set(n.id, `${n.callFrame.functionName || "(anonymous)"} ${path.basename(decodeURIComponent(source)).slice(0, 50)}`);
}

/** Node.js's own frames (and native code) are charged to the nearest caller that is not Node.js: who asked for the work. */
const isNode = (area: string) => area.startsWith("node") || area === "(program)";
const owner = new Map<string, number>();
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
const selfFn = new Map<string, number>();
let total = 0;
let idle = 0;
const [from, to] = values.window ? values.window.split(",").map((x) => Number(x) * 1000) : [-Infinity, Infinity];
let at = 0;
profile.samples.forEach((id, i) => {
  const dt = (profile.timeDeltas[i] ?? 0) / 1000;
  at += dt;
  if (at < from! || at > to!) return;
  const fn = byId.get(id)!.callFrame.functionName;
  if (fn === "(idle)") {
    idle += dt;
    return;
  }
  total += dt;
  const area = areaOfNode.get(id)!;
  self.set(area, (self.get(area) ?? 0) + dt);
  selfFn.set(fnOfNode.get(id)!, (selfFn.get(fnOfNode.get(id)!) ?? 0) + dt);
  let by: number | undefined = id;
  while (by !== undefined && isNode(areaOfNode.get(by)!) && parent.get(by) !== undefined) by = parent.get(by);
  const who = by === undefined || areaOfNode.get(by) === "(root)" ? "node (no caller outside it)" : areaOfNode.get(by)!;
  owner.set(who, (owner.get(who) ?? 0) + dt);
  const seen = new Set<string>();
  for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) seen.add(areaOfNode.get(n)!);
  for (const a of seen) inclusive.set(a, (inclusive.get(a) ?? 0) + dt);
});

const top = Number(values.top);
const fmt = (ms: number) => `${((ms / total) * 100).toFixed(1).padStart(5)} %  ${(ms / per).toFixed(per === 1 ? 0 : 3).padStart(8)} ms`;
console.log(`busy ${total.toFixed(0)} ms, idle ${idle.toFixed(0)} ms${per !== 1 ? `, per unit: ÷ ${per}` : ""}\n\nself time by area:`);
for (const [a, ms] of [...self].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${fmt(ms)}  ${a}`);
console.log("\nself time by area, Node.js's own charged to its caller:");
for (const [a, ms] of [...owner].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${fmt(ms)}  ${a}`);
console.log("\ninclusive time by area (a sample counts once per area on its stack):");
for (const [a, ms] of [...inclusive].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${fmt(ms)}  ${a}`);
console.log("\nself time by function:");
for (const [f, ms] of [...selfFn].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${fmt(ms)}  ${f}`);
