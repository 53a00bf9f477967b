/**
 * A kitchen ticket has a fixed height, as on a KDS: what fits of an order, and how a cook
 * moves a selection across the tickets with arrow keys (a bump bar). Pure.
 */
import { CHANNELS, type Service } from "./orders";

/** A channel a ticket names: every known one but the kiosk. */
export type TicketChannel = Exclude<(typeof CHANNELS)[number], "kiosk">;

/**
 * What a ticket of `lines` text lines shows: the first items, then "+N more" on a line of
 * its own. `costs` are the lines each item takes (a long label wraps, a line's note is one
 * more; 1 each when not given). The first item is always shown (a cook always sees a dish):
 * when it leaves no line free, "+N more" shares its line if it is one line (`moreInline`),
 * else comes under it (the ticket grows by that line).
 */
export function clampItems<T>(items: readonly T[], lines: number, costs: readonly number[] = []): { shown: T[]; more: number; moreInline: boolean } {
  const room = Math.max(1, lines);
  const cost = (i: number) => Math.max(1, costs[i] ?? 1);
  const total = items.reduce((sum, _, i) => sum + cost(i), 0);
  if (total <= room) return { shown: [...items], more: 0, moreInline: false };
  let used = 0;
  let n = 0;
  while (n < items.length && used + cost(n) <= room - 1) used += cost(n++);
  // A one-line dish shares its line with "+N more"; a taller one keeps its width, and "+N more" goes under it.
  if (n === 0) return { shown: items.slice(0, 1), more: items.length - 1, moreInline: items.length > 1 && cost(0) === 1 };
  return { shown: items.slice(0, n), more: items.length - n, moreInline: false };
}

/** Text lines left for items once the ticket's badge row and note take theirs. */
export function itemLines(capacity: number, { badges, noteLines }: { badges: boolean; noteLines: number }): number {
  return Math.max(1, capacity - (badges ? 1 : 0) - noteLines);
}

/** A note longer than this (in Latin-letter widths) is about eight lines on a one-column ticket: its ticket takes two columns. */
export const WIDE_NOTE = 120;

/** True when a note is long enough that its ticket is set two columns wide, so it stays within a screen's height. */
export function wideNote(note: string | null): boolean {
  let width = 0;
  // CJK and other wide scripts: a character takes about two Latin letters' room.
  for (const c of note ?? "") width += c.codePointAt(0)! >= 0x2e80 ? 2 : 1;
  return width > WIDE_NOTE;
}

/** Tickets in the grid (to prepare), then those in the pickup column (one per row). */
export type TicketArea = "grid" | "side";
export interface TicketSpot {
  area: TicketArea;
  index: number;
}
export type ArrowKey = "left" | "right" | "up" | "down";

/**
 * Where an arrow key takes the selection. ←/→ walk every ticket in reading order (the
 * grid, then the pickup column); ↑/↓ move a row in the grid, one ticket in the column.
 * With nothing selected any arrow selects the first ticket.
 */
export function moveSpot(counts: Record<TicketArea, number>, columns: number, at: TicketSpot | null, key: ArrowKey): TicketSpot | null {
  const total = counts.grid + counts.side;
  if (total === 0) return null;
  const flat = (s: TicketSpot) => (s.area === "grid" ? s.index : counts.grid + s.index);
  const spot = (i: number): TicketSpot => (i < counts.grid ? { area: "grid", index: i } : { area: "side", index: i - counts.grid });
  if (!at) return spot(0);
  const i = Math.min(flat(at), total - 1);
  if (key === "left") return spot(Math.max(0, i - 1));
  if (key === "right") return spot(Math.min(total - 1, i + 1));
  if (at.area === "side") return spot(Math.min(total - 1, Math.max(counts.grid, i + (key === "down" ? 1 : -1))));
  const cols = Math.max(1, columns);
  if (key === "up") return spot(i - cols >= 0 ? i - cols : i);
  // Down into a shorter last row lands on its last ticket; from the last row it stays.
  const lastRow = Math.floor((counts.grid - 1) / cols);
  if (Math.floor(i / cols) === lastRow) return spot(i);
  return spot(Math.min(i + cols, counts.grid - 1));
}

/**
 * The selected ticket after the screen changed. A ticket still in its area stays selected;
 * one that left (bumped, moved by someone else) hands the selection to the ticket now in
 * its place, as on a KDS, so the next bump needs no arrow.
 */
export function keepSpot(ids: Record<TicketArea, readonly string[]>, at: (TicketSpot & { id: string }) | null): (TicketSpot & { id: string }) | null {
  if (!at) return null;
  const list = ids[at.area];
  const still = list.indexOf(at.id);
  if (still >= 0) return { area: at.area, index: still, id: at.id };
  if (list.length === 0) return null;
  const index = Math.min(at.index, list.length - 1);
  return { area: at.area, index, id: list[index]! };
}

/** The channel a ticket names: none for the kiosk (most orders; a label on each would be noise), else a known one or the raw word. */
export function ticketChannel(channel: string): { kind: TicketChannel | "other"; word: string } | null {
  const word = channel.trim().toLowerCase();
  if (!word || word === "kiosk") return null;
  return { kind: (CHANNELS as readonly string[]).includes(word) ? (word as TicketChannel) : "other", word };
}

/** What sets an order apart on its ticket: an earlier business day or shift, a channel other than the kiosk, and packing to go. */
export interface TicketMarks {
  earlierDay: boolean;
  earlierShift: boolean;
  channel: ReturnType<typeof ticketChannel>;
  /** To be packed (issue #41); eating in is the usual case and goes unmarked, like the kiosk channel. */
  takeAway: boolean;
}

/**
 * An order of an earlier business day is marked as such (its shift number belongs to that
 * day, so it is not also "an earlier shift"); one of today's earlier shift by its shift.
 */
export function ticketMarks(
  order: { shift: number; channel: string; businessDay?: string; service?: Service | null },
  today: { shift: number; businessDay: string },
): TicketMarks {
  // "YYYY-MM-DD" compares as text in date order.
  const earlierDay = !!order.businessDay && order.businessDay < today.businessDay;
  return { earlierDay, earlierShift: !earlierDay && order.shift < today.shift, channel: ticketChannel(order.channel), takeAway: order.service === "takeAway" };
}

export const hasMarks = (m: TicketMarks): boolean => m.earlierDay || m.earlierShift || m.channel !== null || m.takeAway;
