"use client";
/**
 * useActionState for a staff server action, through callAction: a lost connection becomes
 * the screen's readable `{ ok: false }` (common.errors.connectionLost) instead of a crash.
 */
import { startTransition, useActionState, type FormEvent } from "react";
import { useTranslations } from "next-intl";
import { callAction } from "./client-action";

export function useStaffAction<S extends { ok: boolean } | null>(
  action: (prev: S, form: FormData) => Promise<S>,
): [state: S, dispatch: (form: FormData) => void, pending: boolean] {
  const tc = useTranslations("common.errors");
  // S is a plain (never a Promise) result: Awaited<S> is S.
  return useActionState<S, FormData>(
    async (prev, form) => (await callAction(action, prev as S, form, tc("connectionLost"), tc("newBuild"))) as S,
    null as Awaited<S>,
  );
}

/** An onSubmit sending the form to `dispatch`: by hand, as a form action would reset the fields when a save fails. */
export const submitTo =
  (dispatch: (form: FormData) => void) =>
  (e: FormEvent<HTMLFormElement>): void => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    startTransition(() => dispatch(form));
  };

/** Sends `fields` to `dispatch` as a form (a button's action outside any form). */
export function dispatchFields(dispatch: (form: FormData) => void, fields: Record<string, string>): void {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  startTransition(() => dispatch(form));
}
