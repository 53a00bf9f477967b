/**
 * The menu: categories and items a manager edits and the kiosk shows as buttons. The
 * rules here (input schemas, ordering, turning a kiosk selection into order items) are
 * framework-free; MenuService applies them through a MenuRepository port.
 */
import { z } from "zod";
import { lineText } from "./text";
import { AppError } from "./errors";
import type { OrderItem, OrderLineInput } from "./orders";
import { stationRefSchema } from "./stations";
import { effectiveGroups, optionGroupsSchema, resolveOptions, unitPrice, type OptionGroup } from "./menu-options";

export const MENU_LIMITS = { name: 80, position: 1_000_000, priceCents: 100_000_000 } as const;

export interface MenuCategory {
  id: string;
  name: string;
  position: number;
  /** Where its items are made unless an item names its own station; null: the default station. */
  stationId: string | null;
  /** Option groups every item of it offers, before the item's own (issue #41). */
  optionGroups: OptionGroup[];
}

export interface MenuItem {
  id: string;
  categoryId: string;
  name: string;
  /** Smallest currency unit (cents, fen); null: no price shown. */
  priceCents: number | null;
  available: boolean;
  position: number;
  /** Where it is made; null: its category's station, else the default station. */
  stationId: string | null;
  /** Its own option groups, after its category's (issue #41). */
  optionGroups: OptionGroup[];
}

/**
 * An item as an order line reads it: with its category's station, which routes it when it
 * has none of its own, and its category's option groups, which it offers before its own.
 */
export type OrderableItem = MenuItem & { categoryStationId: string | null; categoryOptionGroups: OptionGroup[] };

export interface MenuSection extends MenuCategory {
  items: MenuItem[];
}

const nameSchema = lineText("Name").min(1, "Name is required").max(MENU_LIMITS.name, `Name is too long (${MENU_LIMITS.name} characters at most)`);
const positionSchema = z
  .number({ error: "Position must be a number" })
  .int("Position must be a whole number")
  .min(0, "Position must be 0 or more")
  .max(MENU_LIMITS.position, `Position must be at most ${MENU_LIMITS.position}`);
const priceSchema = z
  .number({ error: "Price must be a whole number of cents, or null" })
  .int("Price must be a whole number of cents")
  .min(0, "Price must be 0 or more")
  .max(MENU_LIMITS.priceCents, "Price is too high")
  .nullable();
const idSchema = (what: string) => z.uuid({ error: `${what} must be a menu id (UUID)` });
const availableSchema = z.boolean({ error: "Available must be true or false" });

const somethingToChange = (o: object) => Object.keys(o).length > 0;
const nothingToChange = { error: "Nothing to change: send at least one field" };

export const newCategorySchema = z.strictObject({
  name: nameSchema,
  position: positionSchema.optional(),
  stationId: stationRefSchema.optional(),
  optionGroups: optionGroupsSchema.optional(),
});
export const categoryPatchSchema = z
  .strictObject({
    name: nameSchema.optional(),
    position: positionSchema.optional(),
    stationId: stationRefSchema.optional(),
    optionGroups: optionGroupsSchema.optional(),
  })
  .refine(somethingToChange, nothingToChange);

export const newItemSchema = z.strictObject({
  categoryId: idSchema("categoryId"),
  name: nameSchema,
  priceCents: priceSchema.optional(),
  available: availableSchema.optional(),
  position: positionSchema.optional(),
  stationId: stationRefSchema.optional(),
  optionGroups: optionGroupsSchema.optional(),
});
export const itemPatchSchema = z
  .strictObject({
    categoryId: idSchema("categoryId").optional(),
    name: nameSchema.optional(),
    priceCents: priceSchema.optional(),
    available: availableSchema.optional(),
    position: positionSchema.optional(),
    stationId: stationRefSchema.optional(),
    optionGroups: optionGroupsSchema.optional(),
  })
  .refine(somethingToChange, nothingToChange);

/** A dish sold out or back (the kitchen's one tap): that one field, nothing else. */
export const availabilitySchema = z.strictObject({ available: availableSchema });

/** A starting menu (the demo's): categories with their items, either with option groups as a manager would send them. */
export interface SeedMenu<G = unknown> {
  name: string;
  optionGroups?: readonly G[];
  items: readonly { name: string; priceCents: number | null; optionGroups?: readonly G[] }[];
}

export type NewCategory = z.output<typeof newCategorySchema>;
export type CategoryPatch = z.output<typeof categoryPatchSchema>;
export type NewItem = z.output<typeof newItemSchema>;
export type ItemPatch = z.output<typeof itemPatchSchema>;

/** Menu order: position, then name (so equal positions still list the same way everywhere), then id. */
export function byPosition<T extends { position: number; name: string; id: string }>(a: T, b: T): number {
  return a.position - b.position || a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
}

/** Where a new entry goes: after the last one. */
export function nextPosition(siblings: readonly { position: number }[]): number {
  return siblings.length === 0 ? 0 : Math.max(...siblings.map((s) => s.position)) + 1;
}

/** Categories in order, each with its items in order; `availableOnly` drops sold-out items. */
export function groupMenu(categories: readonly MenuCategory[], items: readonly MenuItem[], opts: { availableOnly?: boolean } = {}): MenuSection[] {
  return [...categories].sort(byPosition).map((c) => ({
    ...c,
    items: items.filter((i) => i.categoryId === c.id && (!opts.availableOnly || i.available)).sort(byPosition),
  }));
}

/**
 * Moving one entry up or down among its siblings: the new positions (0, 1, 2, … in the
 * new order) of the entries whose position changes. Empty when it is already at that end.
 */
export function moveWithin<T extends { id: string; position: number; name: string }>(
  siblings: readonly T[],
  id: string,
  direction: "up" | "down",
): { id: string; position: number }[] {
  const ordered = [...siblings].sort(byPosition);
  const at = ordered.findIndex((s) => s.id === id);
  const to = direction === "up" ? at - 1 : at + 1;
  if (at < 0 || to < 0 || to >= ordered.length) return [];
  [ordered[at], ordered[to]] = [ordered[to]!, ordered[at]!];
  return ordered.flatMap((s, i) => (s.position === i ? [] : [{ id: s.id, position: i }]));
}

/** Same name ignoring case and surrounding spaces: "Beef noodles" and "beef noodles " are one dish. */
export const sameName = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

export type { OrderLineInput };

/**
 * Turns submitted lines into what the order stores: free-text lines as they are, menu
 * lines with the item's name, its chosen options and its price (options included) copied
 * now (a later menu edit changes no order). `known` holds the tenant's items among the ids
 * asked for. Refuses an unknown (or another restaurant's) item and a bad choice of options
 * with 400, and a sold-out item with 409, naming the line; with `acceptSoldOut` (a channel the
 * restaurant takes them from) a sold-out item is taken and its line flagged instead.
 */
export function resolveOrderLines(lines: readonly OrderLineInput[], known: readonly OrderableItem[], acceptSoldOut = false): OrderItem[] {
  const byId = new Map(known.map((i) => [i.id, i]));
  return lines.map((line, index) => {
    const note = line.note ? { note: line.note } : {};
    if (line.menuItemId === undefined) return { name: line.name, qty: line.qty, ...note };
    const item = byId.get(line.menuItemId);
    if (!item) {
      throw new AppError("BAD_INPUT", {
        message: `items.${index}.menuItemId: no menu item ${line.menuItemId}`,
        userMessage: `items.${index}.menuItemId: this item is not on the menu.`,
        reason: "unknownMenuItem",
        details: { fields: [{ path: `items.${index}.menuItemId`, message: "Not on this restaurant's menu" }] },
      });
    }
    const options = resolveOptions(effectiveGroups(item.categoryOptionGroups, item.optionGroups), line.options ?? [], `items.${index}.options`);
    if (!item.available && !acceptSoldOut) {
      throw new AppError("CONFLICT", {
        message: `items.${index}.menuItemId: ${item.name} (${item.id}) is unavailable`,
        userMessage: `${item.name} is sold out. Remove it from the order.`,
        reason: "menuItemUnavailable",
        details: { name: item.name, path: `items.${index}.menuItemId` },
      });
    }
    const price = unitPrice(item.priceCents, options);
    return {
      name: item.name,
      qty: line.qty,
      menuItemId: item.id,
      ...(price !== null ? { priceCents: price } : {}),
      ...(options.length > 0 ? { options } : {}),
      ...note,
      ...(item.available ? {} : { soldOut: true as const }),
    };
  });
}

/**
 * A price as a cashier types it ("12", "12.5", "12,50") in cents; null for blank; NaN when
 * it is not a price (negative, more than two decimals, not a number).
 */
export function priceTextToCents(text: string): number | null {
  const t = text.trim().replace(",", ".");
  if (t === "") return null;
  const m = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(t);
  if (!m) return Number.NaN;
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

/** Cents as "12.50", as the menu editor's price field shows them (screens use money.ts's formatMoney). */
export function formatCents(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}
