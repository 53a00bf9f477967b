/** The public JSON forms of the menu (the REST API's and docs/api.md's) and their wire schemas (the OpenAPI contract). */
import { z } from "zod";
import type { MenuCategory, MenuItem, MenuSection } from "@/lib/core/menu";
import { parseOrThrow } from "@/lib/core/orders";

const stationIdJson = z
  .string()
  .nullable()
  .meta({ description: "The kitchen station that makes it (an item's own wins over its category's); null: none of its own." });

const optionGroupJsonSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    required: z.boolean().meta({ description: "At least one option must be chosen (min ≥ 1)." }),
    min: z.int().min(0),
    max: z.int().min(1),
    options: z.array(
      z
        .object({ id: z.string(), name: z.string(), priceCents: z.int().min(0).meta({ description: "Added to the dish's price; 0: no charge." }) })
        .meta({ id: "MenuOption" }),
    ),
  })
  .meta({ id: "OptionGroup" });
const optionGroupsJson = (whose: string) => z.array(optionGroupJsonSchema).meta({ description: whose });

export const categoryJsonSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    position: z.int().min(0),
    stationId: stationIdJson,
    optionGroups: optionGroupsJson("Option groups every item of it offers, before the item's own."),
  })
  .meta({ id: "MenuCategory" });

export const itemJsonSchema = z
  .object({
    id: z.string(),
    categoryId: z.string(),
    name: z.string(),
    priceCents: z.int().min(0).nullable().meta({ description: "In the smallest unit of the currency; null: no price shown." }),
    available: z.boolean().meta({ description: "false: sold out." }),
    position: z.int().min(0),
    stationId: stationIdJson,
    optionGroups: optionGroupsJson("Its own option groups, offered after its category's (a group of the same name replaces the category's)."),
  })
  .meta({ id: "MenuItem" });

export const sectionJsonSchema = categoryJsonSchema.extend({ items: z.array(itemJsonSchema) }).meta({ id: "MenuSection" });

export const categoryJson = (c: MenuCategory): z.output<typeof categoryJsonSchema> => ({
  id: c.id,
  name: c.name,
  position: c.position,
  stationId: c.stationId,
  optionGroups: c.optionGroups,
});

export const itemJson = (i: MenuItem): z.output<typeof itemJsonSchema> => ({
  id: i.id,
  categoryId: i.categoryId,
  name: i.name,
  priceCents: i.priceCents,
  available: i.available,
  position: i.position,
  stationId: i.stationId,
  optionGroups: i.optionGroups,
});

export const sectionJson = (s: MenuSection): z.output<typeof sectionJsonSchema> => ({ ...categoryJson(s), items: s.items.map(itemJson) });

const flag = (name: string) => z.enum(["true", "false"], { error: `${name} must be true or false` }).transform((v) => v === "true");

/** `?cascade=true|false` (default false); anything else is 400. */
export const cascadeQuerySchema = z.object({ cascade: flag("cascade").optional() });

export function cascadeParam(req: Request): boolean {
  const raw = new URL(req.url).searchParams.get("cascade");
  return raw === null ? false : (parseOrThrow(cascadeQuerySchema, { cascade: raw }, "query").cascade ?? false);
}
