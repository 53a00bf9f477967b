"use server";

import { z } from "zod";
import type { MenuItem, MenuSection } from "@/lib/core/menu";
import { staffAction, type Translator } from "@/lib/edges/next/validated-action.server";

/** A dish as the sold-out panel shows it. */
export interface SoldOutDish {
  id: string;
  name: string;
  available: boolean;
}

export interface SoldOutCategory {
  id: string;
  name: string;
  dishes: SoldOutDish[];
}

const dish = (i: MenuItem): SoldOutDish => ({ id: i.id, name: i.name, available: i.available });
const categories = (menu: MenuSection[]): SoldOutCategory[] =>
  menu.filter((c) => c.items.length > 0).map((c) => ({ id: c.id, name: c.name, dishes: c.items.map(dish) }));

/** The whole menu, read each time the panel opens (a manager may have changed it meanwhile). */
export const readSoldOut = staffAction(
  ["KITCHEN"],
  () => z.object({}),
  async (_input, { app, caller }): Promise<SoldOutCategory[]> => categories(await app.menu.menu(caller.tenant)),
);

const toggle = (t: Translator) =>
  z.object({
    id: z.string({ error: t("common.errors.BAD_INPUT") }),
    available: z.enum(["true", "false"], { error: t("common.errors.BAD_INPUT") }).transform((v) => v === "true"),
  });

/** One tap: a dish sold out or back, written and announced to the kiosks by the menu service. */
export const setDishAvailable = staffAction(["KITCHEN"], toggle, async ({ id, available }, { app, caller }): Promise<SoldOutDish> =>
  dish(await app.menu.setAvailable(caller.tenant, id, { available }, caller.actor)),
);
