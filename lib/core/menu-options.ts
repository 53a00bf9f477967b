/**
 * Options on a dish (issue #41): a menu item's option groups ("Size: Small / Large",
 * "Spice: Mild / Hot", "Extras"), its category's shared ones first, and what an order
 * line's chosen options come to. Framework-free; the menu schemas and order placing use it.
 */
import { z } from "zod";
import { AppError } from "./errors";
import { lineText } from "./text";

export const OPTION_LIMITS = { groups: 10, options: 30, name: 60, chosen: 30, priceCents: 10_000_000 } as const;

export interface MenuOption {
  id: string;
  name: string;
  /** Added to the dish's price (smallest currency unit); 0: no charge. */
  priceCents: number;
}

export interface OptionGroup {
  id: string;
  name: string;
  /** At least `min` options must be chosen (required ⇔ min ≥ 1), at most `max`. */
  required: boolean;
  min: number;
  max: number;
  options: MenuOption[];
}

/** An option as an order line keeps it: copied when ordered, so a later menu edit changes no order. */
export interface ChosenOption {
  group: string;
  name: string;
  priceCents: number;
}

const nameSchema = (what: string) =>
  lineText(what).min(1, `${what} is required`).max(OPTION_LIMITS.name, `${what} is too long (${OPTION_LIMITS.name} characters at most)`);
const countSchema = (what: string) =>
  z
    .number({ error: `${what} must be a number` })
    .int(`${what} must be a whole number`)
    .min(0, `${what} must be 0 or more`)
    .max(OPTION_LIMITS.options, `${what} must be at most ${OPTION_LIMITS.options}`);

const optionSchema = z.strictObject({
  id: z.uuid({ error: "An option's id must be a UUID (leave it out for a new option)" }).optional(),
  name: nameSchema("Option name"),
  priceCents: z
    .number({ error: "An option's price must be a whole number of cents" })
    .int("An option's price must be a whole number of cents")
    .min(0, "An option's price must be 0 or more")
    .max(OPTION_LIMITS.priceCents, "An option's price is too high")
    .default(0),
});

const sameText = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();
const hasTwins = (names: readonly string[]) => names.some((n, i) => names.findIndex((m) => sameText(m, n)) !== i);

/**
 * One group as a manager sends it. `required` alone means "exactly one" unless `max` says
 * more; an optional group without `max` allows any of its options. `min` decides `required`.
 * Ids are kept when sent (a rename keeps them), made otherwise.
 */
export const optionGroupSchema = z
  .strictObject({
    id: z.uuid({ error: "A group's id must be a UUID (leave it out for a new group)" }).optional(),
    name: nameSchema("Group name"),
    required: z.boolean({ error: "required must be true or false" }).optional(),
    min: countSchema("min").optional(),
    max: countSchema("max").min(1, "max must be at least 1").optional(),
    options: z.array(optionSchema).min(1, "A group needs at least one option").max(OPTION_LIMITS.options, `At most ${OPTION_LIMITS.options} options per group`),
  })
  .transform((g, ctx) => {
    const min = g.min ?? (g.required ? 1 : 0);
    const max = g.max ?? (min > 0 ? min : g.options.length);
    if (g.required === true && min < 1) ctx.addIssue({ code: "custom", path: ["min"], message: "A required group needs min 1 or more" });
    if (g.required === false && min > 0) ctx.addIssue({ code: "custom", path: ["required"], message: "A group with min 1 or more is required" });
    if (min > max) ctx.addIssue({ code: "custom", path: ["min"], message: "min must not be more than max" });
    if (max > g.options.length) ctx.addIssue({ code: "custom", path: ["max"], message: "max must not be more than the group's options" });
    if (hasTwins(g.options.map((o) => o.name))) ctx.addIssue({ code: "custom", path: ["options"], message: "Two options of a group have the same name" });
    return {
      id: g.id ?? crypto.randomUUID(),
      name: g.name,
      required: min > 0,
      min,
      max,
      options: g.options.map((o) => ({ id: o.id ?? crypto.randomUUID(), name: o.name, priceCents: o.priceCents })),
    } satisfies OptionGroup;
  });

export const optionGroupsSchema = z
  .array(optionGroupSchema)
  .max(OPTION_LIMITS.groups, `At most ${OPTION_LIMITS.groups} option groups`)
  .refine((groups) => !hasTwins(groups.map((g) => g.name)), "Two option groups have the same name");

/** Stored groups as read back (jsonb): anything not shaped like a group is dropped, never trusted. */
export function toOptionGroups(value: unknown): OptionGroup[] {
  if (!Array.isArray(value)) return [];
  return (value as unknown[]).filter((g): g is OptionGroup => {
    const o = g as Partial<Record<keyof OptionGroup, unknown>> | null;
    return typeof o === "object" && o !== null && typeof o.id === "string" && typeof o.name === "string" && Array.isArray(o.options);
  });
}

/** What a dish offers: its category's shared groups, then its own (a same-named own group replaces the shared one). */
export function effectiveGroups(shared: readonly OptionGroup[], own: readonly OptionGroup[]): OptionGroup[] {
  return [...shared.filter((s) => !own.some((o) => sameText(o.name, s.name))), ...own];
}

/** The option lines an order line may name: an option's id, its name, or "Group: Option" when the name alone is ambiguous. */
export const chosenOptionsSchema = z
  .array(
    lineText("Option")
      .min(1, "An option must not be empty")
      .max(OPTION_LIMITS.name * 2 + 2, "An option is too long"),
  )
  .max(OPTION_LIMITS.chosen, `At most ${OPTION_LIMITS.chosen} options per line`);

const badOption = (path: string, message: string, reason: string): AppError =>
  new AppError("BAD_INPUT", { message: `${path}: ${message}`, userMessage: `${path}: ${message}`, reason, details: { fields: [{ path, message }] } });

/**
 * The options a line chose, checked against the dish's groups: each must name one option
 * (an id, a name, or "Group: Name"), none twice, and every group within its min and max. The
 * result follows the menu's order (group, then option), whatever order they were sent in.
 */
export function resolveOptions(groups: readonly OptionGroup[], chosen: readonly string[], path: string): ChosenOption[] {
  const picked = new Set<string>();
  chosen.forEach((text, i) => {
    const matches = groups.flatMap((g) =>
      g.options.filter((o) => o.id === text || sameText(o.name, text) || sameText(`${g.name}: ${o.name}`, text)).map((o) => ({ g, o })),
    );
    if (matches.length === 0) throw badOption(`${path}.${i}`, `"${text}" is not an option of this dish`, "unknownOption");
    if (matches.length > 1) throw badOption(`${path}.${i}`, `"${text}" is in more than one group: write "Group: ${text}"`, "ambiguousOption");
    const { o } = matches[0]!;
    if (picked.has(o.id)) throw badOption(`${path}.${i}`, `"${o.name}" is chosen twice`, "optionTwice");
    picked.add(o.id);
  });
  for (const g of groups) {
    const n = g.options.filter((o) => picked.has(o.id)).length;
    if (n < g.min)
      throw badOption(path, g.min === 1 ? `choose a ${g.name}` : `choose at least ${g.min} of ${g.name}`, g.required ? "missingOption" : "tooFewOptions");
    if (n > g.max) throw badOption(path, g.max === 1 ? `choose only one ${g.name}` : `choose at most ${g.max} of ${g.name}`, "tooManyOptions");
  }
  return groups.flatMap((g) => g.options.filter((o) => picked.has(o.id)).map((o) => ({ group: g.name, name: o.name, priceCents: o.priceCents })));
}

/** A line's unit price: the dish's and its options'; null when the dish has no price and no option costs anything. */
export function unitPrice(dishCents: number | null, options: readonly ChosenOption[]): number | null {
  const extra = options.reduce((sum, o) => sum + o.priceCents, 0);
  return dishCents === null && extra === 0 ? null : (dishCents ?? 0) + extra;
}

/** "Beef noodles · Large · Extra spicy": what a ticket, a chit and the kitchen print for a line. */
export function lineLabel(line: { name: string; options?: readonly Pick<ChosenOption, "name">[] }): string {
  return [line.name, ...(line.options ?? []).map((o) => o.name)].join(" · ");
}
