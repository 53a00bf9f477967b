/** The public JSON forms of the menu (the REST API's and docs/api.md's). */
import { z } from "zod";
import type { MenuCategory, MenuItem, MenuSection } from "@/lib/core/menu";
import { parseOrThrow } from "@/lib/core/orders";

export const categoryJson = (c: MenuCategory) => ({ id: c.id, name: c.name, position: c.position });

export const itemJson = (i: MenuItem) => ({
  id: i.id,
  categoryId: i.categoryId,
  name: i.name,
  priceCents: i.priceCents,
  available: i.available,
  position: i.position,
});

export const sectionJson = (s: MenuSection) => ({ ...categoryJson(s), items: s.items.map(itemJson) });

const flag = (name: string) => z.enum(["true", "false"], { error: `${name} must be true or false` }).transform((v) => v === "true");

/** `?cascade=true|false` (default false); anything else is 400. */
export function cascadeParam(req: Request): boolean {
  const raw = new URL(req.url).searchParams.get("cascade");
  return raw === null ? false : parseOrThrow(z.object({ cascade: flag("cascade") }), { cascade: raw }, "query").cascade;
}
