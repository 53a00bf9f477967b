"use client";
/**
 * useActionState for a staff server action, through callAction: a lost connection becomes
 * the screen's readable `{ ok: false }` (common.errors.connectionLost) instead of a crash.
 */
import { useActionState } from "react";
import { useTranslations } from "next-intl";
import { callAction } from "./client-action";

export function useStaffAction<S extends { ok: boolean } | null>(
  action: (prev: S, form: FormData) => Promise<S>,
): [state: S, dispatch: (form: FormData) => void, pending: boolean] {
  const tc = useTranslations("common.errors");
  // S is a plain (never a Promise) result: Awaited<S> is S.
  return useActionState<S, FormData>(async (prev, form) => (await callAction(action, prev as S, form, tc("connectionLost"))) as S, null as Awaited<S>);
}
