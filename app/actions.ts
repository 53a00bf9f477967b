"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { slugSchema } from "@/lib/core/tenants";
import { siteAction } from "@/lib/edges/next/validated-action.server";

/** Start page: a restaurant's address → its board. Whether it exists is for the board to say. */
export const openBoard = siteAction(
  (t) =>
    z.object({
      slug: z
        .string({ error: t("home.noSlug") })
        .trim()
        .toLowerCase()
        .min(1, t("home.noSlug"))
        .refine((s) => s === "" || slugSchema.safeParse(s).success, t("home.badSlug")),
    }),
  async ({ slug }): Promise<never> => redirect(`/${slug}/board`),
);
