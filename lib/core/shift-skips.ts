/**
 * What a new shift's numbering will skip: numbers open orders still show are passed over
 * (decision 0027), so the manager is told which ones, e.g. "next number 2; 1, 3–5 are still
 * open and will be skipped". Pure: the screen supplies the open numbers and its words.
 */
import { displayNumber } from "./display-number";
import type { Series } from "./series";

/** A series and the numbers in its reach that open orders show: what a new shift's numbering will pass over. */
export interface SeriesOpenNumbers extends Pick<Series, "name" | "prefix" | "first" | "last" | "isDefault"> {
  open: number[];
}

/** Consecutive numbers as one run: 3, 4, 5 is {from: 3, to: 5}. */
export interface NumberRun {
  from: number;
  to: number;
}

/** Numbers as runs of consecutive ones, in the order given (duplicates dropped). */
export function toRuns(numbers: Iterable<number>): NumberRun[] {
  const runs: NumberRun[] = [];
  const seen = new Set<number>();
  for (const n of numbers) {
    if (seen.has(n)) continue;
    seen.add(n);
    const last = runs.at(-1);
    if (last && n === last.to + 1) last.to = n;
    else runs.push({ from: n, to: n });
  }
  return runs;
}

/** Where a series' numbering goes after a new shift: its next number (null: every one is open) and the open numbers it passes over. */
export interface SkipPlan {
  next: number | null;
  /** In the order the numbering reaches them. */
  skipped: number[];
}

/**
 * A series restarting at `start` (its own first number, or the shift's first number for the
 * default series) with `open` held by open orders: one lap of its range from `start` — to
 * `last` and round from `first` — or, without an end, every open number from `start` up.
 */
export function skipPlan(s: Pick<Series, "first" | "last">, start: number, open: ReadonlySet<number>): SkipPlan {
  const from = Math.max(start, s.first);
  // Without an end the numbering never comes round: numbers below `from` are not reached.
  const reached = (n: number) => n >= s.first && (s.last === null ? n >= from : n <= s.last);
  const lap = (n: number) => (n >= from ? n - from : (s.last ?? n) - from + 1 + n - s.first);
  const skipped = [...open].filter(reached).sort((a, b) => lap(a) - lap(b));
  if (s.last !== null && skipped.length >= s.last - s.first + 1) return { next: null, skipped };
  let next = from;
  while (open.has(next)) next = s.last !== null && next === s.last ? s.first : next + 1;
  return { next, skipped };
}

/** How many runs a list names before it says "and N more". */
export const SKIP_LIST_RUNS = 6;

/**
 * The skipped numbers as a screen lists them: runs of three or more as ranges ("3–5", "K3–K5"), at most
 * `maxRuns` of them joined by `separator`, and how many numbers are left unnamed.
 */
export function skipList(
  prefix: string,
  skipped: readonly number[],
  { separator, maxRuns = SKIP_LIST_RUNS }: { separator: string; maxRuns?: number },
): { list: string; more: number; count: number } {
  // Two in a row read better as "1, 2" than as "1–2".
  const runs = toRuns(skipped).flatMap((r) =>
    r.to === r.from + 1
      ? [
          { from: r.from, to: r.from },
          { from: r.to, to: r.to },
        ]
      : [r],
  );
  const shown = runs.slice(0, maxRuns);
  const more = runs.slice(maxRuns).reduce((n, r) => n + r.to - r.from + 1, 0);
  const show = (r: NumberRun) => (r.from === r.to ? displayNumber(prefix, r.from) : `${displayNumber(prefix, r.from)}–${displayNumber(prefix, r.to)}`);
  return { list: shown.map(show).join(separator), more, count: new Set(skipped).size };
}
