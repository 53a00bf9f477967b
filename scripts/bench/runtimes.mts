/**
 * The same benchmarks on two Node.js binaries in one run, alternating, so the machine's
 * noise falls on both: the project's pinned Node.js (what `npm run` uses) and another one.
 *
 *   npm run build && npm run bench:runtimes -- --other /usr/bin/node --benches api --pairs 2 -- --seconds 6 --rounds 3
 *
 * Arguments after the second `--` go to every benchmark named. Prints, per benchmark, the
 * median of every numeric figure on each runtime over the pairs and their ratio (pinned ÷ other).
 */
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";

const split = process.argv.indexOf("--", 2);
const own = split === -1 ? process.argv.slice(2) : process.argv.slice(2, split);
const passed = split === -1 ? [] : process.argv.slice(split + 1);
const { values } = parseArgs({
  args: own,
  options: {
    other: { type: "string", default: "/usr/bin/node" },
    benches: { type: "string", default: "api,kiosk,fanout" },
    pairs: { type: "string", default: "2" },
  },
});
const runtimes = [values.other, process.execPath];
const tsxCli = new URL("../../node_modules/tsx/dist/cli.mjs", import.meta.url).pathname;

/** One benchmark on one Node.js binary: its JSON summary (stdout). */
function runOnce(node: string, bench: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    // The other Node.js is outside engines on purpose: the servers it starts may run on it (scripts/require-node.mjs).
    const env = { ...process.env, NEXTUP_ALLOW_ANY_NODE: "1" };
    const proc = spawn(node, [tsxCli, `scripts/bench/${bench}.ts`, ...passed], { stdio: ["ignore", "pipe", "inherit"], env });
    let out = "";
    proc.stdout.on("data", (b: Buffer) => (out += b.toString()));
    proc.on("close", (code) => (code === 0 ? resolve(JSON.parse(out) as Record<string, unknown>) : reject(new Error(`${bench} on ${node} exited ${code}`))));
  });
}

/** The median; of an even count, the mean of the middle two. */
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Every numeric leaf, by its dotted path (`figures.orders.perSecond`). */
function leaves(value: unknown, prefix = "", into = new Map<string, number>()): Map<string, number> {
  if (typeof value === "number") into.set(prefix, value);
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) leaves(v, prefix ? `${prefix}.${k}` : k, into);
  return into;
}

const version = (node: string) =>
  new Promise<string>((resolve) => {
    const p = spawn(node, ["-v"]);
    let v = "";
    p.stdout.on("data", (b: Buffer) => (v += b.toString()));
    p.on("close", () => resolve(v.trim()));
  });

const versions = await Promise.all(runtimes.map(version));
const summary: Record<string, unknown> = { runtimes: versions, pairs: Number(values.pairs), args: passed.join(" ") };
for (const bench of values.benches.split(",")) {
  const runs: Map<string, number>[][] = runtimes.map(() => []);
  for (let i = 0; i < Number(values.pairs); i++) {
    // Alternate which runtime goes first, so neither always gets the cooler machine.
    const order = i % 2 === 0 ? [0, 1] : [1, 0];
    for (const r of order) {
      process.stderr.write(`${bench} on Node ${versions[r]} (pair ${i + 1})\n`);
      runs[r]!.push(leaves(await runOnce(runtimes[r]!, bench)));
    }
  }
  const keys = [...runs[0]![0]!.keys()].filter((k) => runs.every((rs) => rs.every((m) => m.has(k))));
  summary[bench] = Object.fromEntries(
    keys.map((k) => {
      const [other, pinned] = runs.map((rs) => median(rs.map((m) => m.get(k)!)));
      return [k, { [versions[0]!]: other, [versions[1]!]: pinned, ratio: other ? Number((pinned! / other!).toFixed(3)) : null }];
    }),
  );
}
process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
