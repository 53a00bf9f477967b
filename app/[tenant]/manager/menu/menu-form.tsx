"use client";

import { startTransition, useActionState, type FormEvent, type ReactNode } from "react";
import { useTranslations } from "next-intl";
import { callAction } from "@/app/_lib/client-action";
import { FormError } from "@/app/_components/form-error";
import type { ActionState, FormAction } from "@/lib/edges/next/validated-action.server";
import type { MenuResult } from "./actions";

export const INPUT = "w-full rounded-lg border-2 border-slate-400 px-3 py-2 text-lg focus:border-blue-700 focus:outline-none focus:ring-4 focus:ring-blue-200";
export const BUTTON =
  "rounded-lg border-2 px-3 py-2 text-base font-semibold whitespace-nowrap focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300 disabled:cursor-wait disabled:opacity-60";
export const PLAIN = `${BUTTON} border-slate-400 bg-white text-slate-900 hover:bg-slate-100`;
export const PRIMARY = `${BUTTON} border-blue-700 bg-blue-700 text-white hover:bg-blue-800`;
export const DANGER = `${BUTTON} border-red-700 bg-white text-red-800 hover:bg-red-50`;

/**
 * One menu form: submits with the pressed button's `op`, without React's automatic form
 * reset (a refused name stays typed), and reports the result to `onOk`.
 */
export function useMenuForm(action: FormAction<MenuResult>, onOk?: (r: MenuResult) => void) {
  const tc = useTranslations("common.errors");
  const [state, dispatch, pending] = useActionState<ActionState<MenuResult>, FormData>(async (prev, form) => {
    const result = await callAction(action, prev, form, tc("connectionLost"), tc("newBuild"));
    if (result?.ok) onOk?.(result.data);
    return result;
  }, null);
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (pending) return;
    const form = new FormData(e.currentTarget, (e.nativeEvent as SubmitEvent).submitter);
    startTransition(() => dispatch(form));
  }
  return { state, submit, pending, error: state && !state.ok ? state.error : null };
}

/** A form's error (role="alert") or its success line (role="status"). */
export function Outcome({ error, children }: { error: string | null; children?: ReactNode }) {
  if (error) return <FormError message={error} className="mt-3 px-3 py-2 text-base" />;
  return children ? (
    <p role="status" className="mt-3 text-base font-medium text-emerald-800">
      {children}
    </p>
  ) : null;
}
