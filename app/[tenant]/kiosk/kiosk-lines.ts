/**
 * The menu lines of the order a cashier is taking (issue #41): a dish with its chosen options
 * and a note, how many. The same dish with other options or another note is another line.
 * Prices and the options' check are the core's (resolveOptions, unitPrice), against the menu
 * the kiosk has now. Pure, so unit-tested.
 */
import type { MenuItem, MenuSection } from "@/lib/core/menu";
import { effectiveGroups, resolveOptions, unitPrice, type ChosenOption, type OptionGroup } from "@/lib/core/menu-options";
import { ORDER_LIMITS } from "@/lib/core/orders";

/** A dish as the kiosk offers it: with the option groups it offers (its category's, then its own). */
export type KioskDish = MenuItem & { groups: OptionGroup[] };
export type KioskSection = Omit<MenuSection, "items"> & { items: KioskDish[] };

/** An option as a line keeps it: its id (sent) and its name when chosen (shown should the menu drop it). */
export interface PickedOption {
  id: string;
  name: string;
}

/** A menu line of the order being taken: the dish's id, its name when tapped, its options, its note, how many. */
export interface Picked {
  id: string;
  name: string;
  qty: number;
  options: PickedOption[];
  note: string;
}

/** Each dish with what it offers: its category's groups, then its own (the order placing checks the same). */
export function kioskMenu(menu: readonly MenuSection[]): KioskSection[] {
  return menu
    .filter((s) => s.items.length > 0)
    .map((s) => ({ ...s, items: s.items.map((item) => ({ ...item, groups: effectiveGroups(s.optionGroups, item.optionGroups) })) }));
}

const optionIds = (line: Pick<Picked, "options">) =>
  line.options
    .map((o) => o.id)
    .sort()
    .join(",");

/** One line or two: the same dish, the same options (in any order) and the same note. */
export const sameLine = (a: Omit<Picked, "qty">, b: Omit<Picked, "qty">): boolean =>
  a.id === b.id && optionIds(a) === optionIds(b) && a.note.trim() === b.note.trim();

/** A key for the line (React's, the form's): its dish, options and note. */
export const lineKey = (line: Omit<Picked, "qty">): string => JSON.stringify([line.id, optionIds(line), line.note.trim()]);

const capped = (qty: number) => Math.min(ORDER_LIMITS.qty, qty);

/** Adds `line`: more of the same line when the order has it, else a new line at the end. */
export function addLine(picked: readonly Picked[], line: Picked): Picked[] {
  const at = picked.findIndex((p) => sameLine(p, line));
  if (at < 0) return [...picked, { ...line, note: line.note.trim(), qty: capped(line.qty) }];
  return picked.map((p, i) => (i === at ? { ...p, qty: capped(p.qty + line.qty) } : p));
}

/** One more of a dish without options, as a tap adds it. */
export const addOne = (picked: readonly Picked[], dish: Pick<MenuItem, "id" | "name">): Picked[] =>
  addLine(picked, { id: dish.id, name: dish.name, qty: 1, options: [], note: "" });

/** Line `index` as edited: in its place, or joined to another line it now equals. */
export function replaceLine(picked: readonly Picked[], index: number, line: Picked): Picked[] {
  const other = picked.findIndex((p, i) => i !== index && sameLine(p, line));
  if (other < 0) return picked.map((p, i) => (i === index ? { ...line, note: line.note.trim(), qty: capped(line.qty) } : p));
  return picked.flatMap((p, i) => (i === index ? [] : i === other ? [{ ...p, qty: capped(p.qty + line.qty) }] : [p]));
}

/** Line `index` with `delta` more (or fewer); below one it leaves the order. */
export const stepLine = (picked: readonly Picked[], index: number, delta: number): Picked[] =>
  picked.flatMap((p, i) => (i !== index ? [p] : p.qty + delta < 1 ? [] : [{ ...p, qty: capped(p.qty + delta) }]));

/** What a line comes to on the menu the kiosk has now. */
export interface LineState {
  /** Its options as the menu names them now; the line's own when they no longer fit. */
  options: Pick<ChosenOption, "name">[];
  /** One unit, its options included; null without a price. */
  unitCents: number | null;
  /** Why it cannot be taken as it is: the dish is off the menu or sold out, or its options no longer fit the dish. */
  problem: "soldOut" | "options" | null;
}

export function lineState(dish: KioskDish | undefined, line: Picked): LineState {
  if (!dish || !dish.available) return { options: line.options, unitCents: null, problem: "soldOut" };
  try {
    const chosen = resolveOptions(
      dish.groups,
      line.options.map((o) => o.id),
      "options",
    );
    return { options: chosen, unitCents: unitPrice(dish.priceCents, chosen), problem: null };
  } catch {
    // A group added or an option removed since it was tapped: the cashier chooses again (the server would refuse it).
    return { options: line.options, unitCents: null, problem: "options" };
  }
}

/** The groups still short of a choice when `chosen` (option ids) are ticked. */
export const missingGroups = (groups: readonly OptionGroup[], chosen: ReadonlySet<string>): OptionGroup[] =>
  groups.filter((g) => g.options.filter((o) => chosen.has(o.id)).length < g.min);

/** The dishes of the menu by id. */
export const dishesById = (menu: readonly KioskSection[]): Map<string, KioskDish> => new Map(menu.flatMap((s) => s.items.map((i) => [i.id, i] as const)));
