"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { MENU_LIMITS, priceTextToCents } from "@/lib/core/menu";
import { staffAction, type Translator } from "@/lib/edges/next/validated-action.server";

/** What a menu form reports back: the name it acted on, for its status line. */
export interface MenuResult {
  name: string;
}

const nameField = (t: Translator) =>
  z
    .string()
    .trim()
    .min(1, t("managerMenu.errors.nameRequired"))
    .max(MENU_LIMITS.name, t("managerMenu.errors.nameTooLong", { max: MENU_LIMITS.name }));

/** A typed price ("12.50") in cents; blank is no price. */
const priceField = (t: Translator) =>
  z
    .string()
    .optional()
    .transform((v) => priceTextToCents(v ?? ""))
    .refine((c) => c === null || Number.isFinite(c), t("managerMenu.errors.badPrice"));

const idField = (t: Translator) => z.uuid(t("managerMenu.errors.badRequest"));
/** A station select: "" is none of its own (the category's, else the default); absent while the restaurant has no stations. */
const stationField = (t: Translator) =>
  z.union([z.literal(""), z.uuid(t("managerMenu.errors.badRequest"))], { error: t("managerMenu.errors.badRequest") }).transform((v) => (v === "" ? null : v));
/** A checkbox: present ("on") when ticked. */
const checkbox = z
  .string()
  .optional()
  .transform((v) => v !== undefined);

export const addCategory = staffAction(
  ["MANAGER"],
  (t) => z.object({ name: nameField(t) }),
  async ({ name }, { app, caller }): Promise<MenuResult> => {
    const c = await app.menu.createCategory(caller.tenant, { name }, caller.actor);
    refresh();
    return { name: c.name };
  },
);

/** One form per category: rename, set its station, move up/down, delete (when empty) or delete with its items. */
export const categoryOp = staffAction(
  ["MANAGER"],
  (t) =>
    z.discriminatedUnion("op", [
      z.object({ op: z.literal("rename"), id: idField(t), name: nameField(t) }),
      z.object({ op: z.literal("station"), id: idField(t), stationId: stationField(t) }),
      z.object({ op: z.enum(["up", "down", "delete", "deleteAll"]), id: idField(t) }),
    ]),
  async (input, { app, caller }): Promise<MenuResult> => {
    const { tenant, actor } = caller;
    let name: string;
    if (input.op === "rename") name = (await app.menu.updateCategory(tenant, input.id, { name: input.name }, actor)).name;
    else if (input.op === "station") name = (await app.menu.updateCategory(tenant, input.id, { stationId: input.stationId }, actor)).name;
    else {
      name = (await app.menu.category(tenant, input.id)).name;
      if (input.op === "up" || input.op === "down") await app.menu.moveCategory(tenant, input.id, input.op, actor);
      else await app.menu.deleteCategory(tenant, input.id, input.op === "deleteAll", actor);
    }
    refresh();
    return { name };
  },
);

export const addItem = staffAction(
  ["MANAGER"],
  (t) => z.object({ categoryId: idField(t), name: nameField(t), price: priceField(t), available: checkbox }),
  async ({ categoryId, name, price, available }, { app, caller }): Promise<MenuResult> => {
    const item = await app.menu.createItem(caller.tenant, { categoryId, name, priceCents: price, available }, caller.actor);
    refresh();
    return { name: item.name };
  },
);

/** One form per item: save (name, price, station when there are stations), move up/down, delete. Sold out is its own tap. */
export const itemOp = staffAction(
  ["MANAGER"],
  (t) =>
    z.discriminatedUnion("op", [
      z.object({ op: z.literal("save"), id: idField(t), name: nameField(t), price: priceField(t), stationId: stationField(t).optional() }),
      z.object({ op: z.enum(["up", "down", "delete"]), id: idField(t) }),
    ]),
  async (input, { app, caller }): Promise<MenuResult> => {
    const { tenant, actor } = caller;
    let name: string;
    if (input.op === "save") {
      const station = input.stationId === undefined ? {} : { stationId: input.stationId };
      name = (await app.menu.updateItem(tenant, input.id, { name: input.name, priceCents: input.price, ...station }, actor)).name;
    } else {
      name = (await app.menu.item(tenant, input.id)).name;
      if (input.op === "delete") await app.menu.deleteItem(tenant, input.id, actor);
      else await app.menu.moveItem(tenant, input.id, input.op, actor);
    }
    refresh();
    return { name };
  },
);
