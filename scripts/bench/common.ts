/** What the benchmark scripts share: arguments, medians, the machine line. */
import os from "node:os";
import { parseArgs } from "node:util";

/** `--seconds` and `--rounds` (with defaults) plus any extra numeric options. */
export function benchArgs<K extends string>(defaults: { seconds: number; rounds: number } & Record<K, number>): Record<"seconds" | "rounds" | K, number> {
  const { values } = parseArgs({
    options: Object.fromEntries(Object.entries(defaults).map(([k, v]) => [k, { type: "string", default: String(v) }])),
  });
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Number(v)])) as Record<"seconds" | "rounds" | K, number>;
}

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export function machine(): string {
  const cpu = os.cpus();
  return `${cpu.length} × ${cpu[0]?.model ?? "cpu"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

/** Runs a benchmark's main and exits: 0 when it finished, 1 (with the error) when not. */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
