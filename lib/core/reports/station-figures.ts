/**
 * A business day's figures per kitchen station (issue #40): how many parts it had, how long
 * from the order to its part being done, and how often it was the last of an order's
 * stations to finish — the station that holds orders up. Pure.
 */
import type { OrderPart, Station } from "../stations";
import { spreadSeconds, type Spread } from "./percentile";

/** An order of the day with parts: when it was taken, and its parts as stored. */
export interface OrderParts {
  createdAt: Date;
  parts: readonly OrderPart[];
}

export interface StationFigures {
  id: string;
  /** Its name now; a station removed since: its name on the day's latest order. */
  name: string;
  /** Parts of the day's orders at this station, done or not. */
  parts: number;
  /** From the order taken to this part done (done parts). */
  timeToDone: Spread;
  /** Orders with parts at several stations, all done, that had a part here. */
  shared: number;
  /** Of those, the ones where this station finished last (a tie counts for each station in it). */
  last: number;
}

/** The day's stations with parts: live ones in screen order, then removed ones by name. */
export function stationFigures(orders: readonly OrderParts[], live: readonly Pick<Station, "id" | "name">[]): StationFigures[] {
  const acc = new Map<string, { name: string; latest: number; parts: number; doneMs: number[]; shared: number; last: number }>();
  for (const o of orders) {
    const taken = o.createdAt.getTime();
    const allDone = o.parts.length > 1 && o.parts.every((p) => p.doneAt !== null);
    const lastAt = allDone ? Math.max(...o.parts.map((p) => Date.parse(p.doneAt!))) : null;
    for (const p of o.parts) {
      const a = acc.get(p.id) ?? { name: p.name, latest: taken, parts: 0, doneMs: [], shared: 0, last: 0 };
      if (taken >= a.latest) Object.assign(a, { name: p.name, latest: taken });
      a.parts++;
      if (p.doneAt !== null) a.doneMs.push(Date.parse(p.doneAt) - taken);
      if (lastAt !== null) {
        a.shared++;
        if (Date.parse(p.doneAt!) === lastAt) a.last++;
      }
      acc.set(p.id, a);
    }
  }
  const position = new Map(live.map((s, i) => [s.id, i]));
  return [...acc]
    .map(([id, a]) => ({
      id,
      name: live.find((s) => s.id === id)?.name ?? a.name,
      parts: a.parts,
      timeToDone: spreadSeconds(a.doneMs),
      shared: a.shared,
      last: a.last,
    }))
    .sort(
      (x, y) => (position.get(x.id) ?? live.length) - (position.get(y.id) ?? live.length) || x.name.localeCompare(y.name, "en") || x.id.localeCompare(y.id),
    );
}
