"use client";

/** What the console's People section shares between its parts: field and button styles, errors beside fields, notes that fade. */
import { useEffect, useState, type ReactNode } from "react";
import { useTranslations } from "next-intl";
import type { StaffRole } from "@/lib/core/tenants";
import { BUTTON } from "../_components/console-styles";

/** A person as the console lists them: never anything of the PIN. */
export interface PersonRow {
  id: string;
  name: string;
  role: StaffRole;
  active: boolean;
}

export const PIN_INPUT = { type: "password", inputMode: "numeric", autoComplete: "off", maxLength: 8 } as const;
export const SMALL = "rounded-lg px-3 py-2 text-base font-semibold focus:outline-none focus-visible:ring-4 disabled:cursor-wait disabled:opacity-60";
export const PLAIN = `${SMALL} border-2 border-slate-400 bg-white text-slate-900 hover:bg-slate-100 focus-visible:ring-blue-300`;
export const DARK = `${BUTTON} bg-slate-900 text-white hover:bg-slate-700 focus-visible:ring-blue-300`;

/** An editor's two buttons: save the change, or close it unchanged. */
export function SaveOrCancel({ pending, onCancel }: { pending: boolean; onCancel: () => void }) {
  const tp = useTranslations("managerAccess.people");
  return (
    <>
      <button type="submit" disabled={pending} className={DARK}>
        {pending ? tp("saving") : tp("save")}
      </button>
      <button type="button" onClick={onCancel} className={`${BUTTON} border-2 border-slate-400 bg-white hover:bg-slate-100 focus-visible:ring-blue-300`}>
        {tp("cancel")}
      </button>
    </>
  );
}

/** A field's error, beside the field it is about (`field`), or below the form when it names none. */
export function errorFor(
  state: { ok: true } | { ok: false; error: string; field?: string } | null,
  message: string | null,
  field: string,
  fields: readonly string[],
) {
  if (!message || !state || state.ok) return null;
  const named = state.field && fields.includes(state.field) ? state.field : null;
  return field === "" ? (named ? null : message) : named === field ? message : null;
}

/** How long a confirmation stays on screen. */
const FADE_MS = 6_000;

/**
 * What an action here did, for a few seconds, in a polite live region that stays in the page
 * (so that each new one is announced). Like the console's StatusNote, without its status role:
 * the page keeps one status region, the API keys' note.
 */
export function LiveNote({ children, testId, token }: { children: ReactNode; testId?: string; token: unknown }) {
  const [shownFor, setShownFor] = useState<unknown>(token);
  const [faded, setFaded] = useState(false);
  if (shownFor !== token) {
    setShownFor(token);
    setFaded(false);
  }
  const visible = !faded && children !== null && children !== undefined;
  useEffect(() => {
    if (!visible) return;
    const t = setTimeout(() => setFaded(true), FADE_MS);
    return () => clearTimeout(t);
  }, [visible, shownFor]);
  return (
    <div aria-live="polite" aria-atomic="true">
      {visible ? (
        <p data-testid={testId} className="rounded-lg border-2 border-emerald-700 bg-emerald-50 px-4 py-3 text-lg font-medium text-emerald-900">
          {children}
        </p>
      ) : null}
    </div>
  );
}
