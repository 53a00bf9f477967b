"use client";

import { createContext, useContext, useState, useTransition } from "react";
import { useTranslations } from "next-intl";
import { callAction } from "@/app/_lib/client-action";
import { tenantForm } from "@/app/_components/use-live-data";
import type { ActionState } from "@/lib/edges/next/validated-action.server";

/** When the screen last heard from the server (its live data re-read): a lost connection's error is over then. */
export const ServerReachedAt = createContext<number | null>(null);

/**
 * Runs a kitchen server action for one control. `done` is called with the result even
 * when the control has meanwhile left the screen (its card moved to another section), so
 * the screen can announce it and put focus somewhere sensible. A failure is kept here.
 */
export function useOrderAction(slug: string) {
  const tErrors = useTranslations("common.errors");
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<{ text: string; offline: boolean; at: number } | null>(null);
  const reachedAt = useContext(ServerReachedAt);
  // "Could not reach the server" clears once the screen has heard from it again.
  const shown = error && !(error.offline && reachedAt !== null && reachedAt > error.at) ? error.text : null;

  function run<T>(action: (prev: ActionState<T>, form: FormData) => Promise<ActionState<T>>, fields: Record<string, string>, done: (data: T) => void) {
    const form = tenantForm(slug, fields);
    setError(null);
    startTransition(async () => {
      const result = await callAction(action, null, form, tErrors("connectionLost"), tErrors("newBuild"));
      if (result?.ok) {
        done(result.data);
      } else {
        // A 409 or 404 means someone else moved the order: its event reloads the screen.
        setError({ text: result?.error ?? tErrors("INTERNAL"), offline: result?.code === "UNAVAILABLE", at: Date.now() });
      }
    });
  }

  return { run, pending, error: shown };
}
