"use client";

import { useState, useTransition } from "react";
import { useTranslations } from "next-intl";
import { callAction } from "@/app/_lib/client-action";
import { tenantForm } from "@/app/_components/use-live-data";
import type { ActionState } from "@/lib/edges/next/validated-action.server";

/**
 * Runs a kitchen server action for one control. `done` is called with the result even
 * when the control has meanwhile left the screen (its card moved to another section), so
 * the screen can announce it and put focus somewhere sensible. A failure is kept here.
 */
export function useOrderAction(slug: string) {
  const tErrors = useTranslations("common.errors");
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);

  function run<T>(action: (prev: ActionState<T>, form: FormData) => Promise<ActionState<T>>, fields: Record<string, string>, done: (data: T) => void) {
    const form = tenantForm(slug, fields);
    setError(null);
    startTransition(async () => {
      const result = await callAction(action, null, form, tErrors("connectionLost"));
      if (result?.ok) {
        done(result.data);
      } else {
        // A 409 or 404 means someone else moved the order: its event reloads the screen.
        setError(result?.error ?? tErrors("INTERNAL"));
      }
    });
  }

  return { run, pending, error };
}
