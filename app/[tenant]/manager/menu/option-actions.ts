"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { staffAction } from "@/lib/edges/next/validated-action.server";
import type { MenuResult } from "./actions";

/**
 * A dish's or a category's option groups, as the editor sends them (one JSON field): the
 * core's schema checks them (lib/core/menu-options.ts) and the change is audited like any edit.
 */
export const saveOptionGroups = staffAction(
  ["MANAGER"],
  (t) =>
    z.object({
      target: z.enum(["item", "category"], { error: t("managerMenu.errors.badRequest") }),
      id: z.uuid(t("managerMenu.errors.badRequest")),
      groups: z.string().transform((text, ctx) => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          ctx.addIssue({ code: "custom", message: t("managerMenu.errors.badRequest") });
          return z.NEVER;
        }
      }),
    }),
  async ({ target, id, groups }, { app, caller }): Promise<MenuResult> => {
    const { tenant, actor } = caller;
    const saved =
      target === "item"
        ? await app.menu.updateItem(tenant, id, { optionGroups: groups }, actor)
        : await app.menu.updateCategory(tenant, id, { optionGroups: groups }, actor);
    refresh();
    return { name: saved.name };
  },
);
