"use server";

import { redirect } from "next/navigation";
import { slugSchema } from "@/lib/core/tenants";

export type OpenBoardState = { error: string; slug: string } | null;

/** Landing page form: a restaurant's address → its board. Whether it exists is for the board to say. */
export async function openBoard(_prev: OpenBoardState, form: FormData): Promise<OpenBoardState> {
  const raw = String(form.get("slug") ?? "").trim().toLowerCase();
  const parsed = slugSchema.safeParse(raw);
  if (!parsed.success) {
    return { error: raw ? "Restaurant addresses use lower-case letters, digits and dashes only, e.g. “pizza-roma”." : "Type your restaurant's address, e.g. “pizza-roma”.", slug: raw };
  }
  redirect(`/${parsed.data}/board`);
}
