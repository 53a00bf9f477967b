"use client";

import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { usePathname } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import type { StaffRole } from "@/lib/core/tenants";
import { callAction, NEW_BUILD, SIGNED_OUT_EVENT } from "@/app/_lib/client-action";
import { reloadWhenFree } from "@/app/_lib/new-build";
import { tenantForm } from "./use-live-data";
import { checkSession } from "@/app/[tenant]/sign-in/actions";

/** How often an open staff screen asks whether its session still holds. */
const CHECK_EVERY_MS = 5_000;

/**
 * "Signed in as …" (a person: "Li Wei · Kitchen" and a one-tap "Switch person", which opens
 * the sign-in page to come back to this screen) while the session holds; once it ends (an action refused, or the check
 * every few seconds), "Signed out" and a notice over the screen with the way back to the
 * sign-in page in the same language. A lost connection is not a sign-out: only an answer
 * of UNAUTHENTICATED is. A check the server no longer knows (a new build) reloads the page.
 */
export function SessionWatch({ slug, role, person = null }: { slug: string; role: StaffRole; person?: string | null }) {
  const t = useTranslations("staff");
  const locale = useLocale();
  const path = usePathname();
  const [ended, setEnded] = useState(false);
  const again = useRef<HTMLAnchorElement>(null);

  useEffect(() => {
    if (ended) return;
    const end = () => setEnded(true);
    const check = async () => {
      const r = await callAction(checkSession, null, tenantForm(slug), "", "");
      if (!r || r.ok) return;
      if (r.code === "UNAUTHENTICATED") end();
      // The server runs another build (an update): a page without a live connection to hear it (the console's
      // settings, audit, menu) learns it here, and reloads as the others do (decision 0048).
      else if (r.code === NEW_BUILD) reloadWhenFree();
    };
    const timer = setInterval(() => void check(), CHECK_EVERY_MS);
    const onVisible = () => document.visibilityState === "visible" && void check();
    window.addEventListener(SIGNED_OUT_EVENT, end);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      clearInterval(timer);
      window.removeEventListener(SIGNED_OUT_EVENT, end);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [slug, ended]);

  // Once signed out, the notice takes the focus (React's autoFocus does nothing on a link) and keeps it: Tab stays on
  // "Sign in again", the only thing it offers, and no key reaches the screen under it (a kitchen's number field, its
  // arrows and Enter), whose every action would be refused anyway.
  useEffect(() => {
    if (!ended) return;
    again.current?.focus();
    const keep = (e: KeyboardEvent) => {
      const link = again.current;
      if (!link || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === "Tab" || e.key === "Escape" || e.key.startsWith("Arrow") || document.activeElement !== link) {
        e.preventDefault();
        link.focus();
      }
    };
    document.addEventListener("keydown", keep, true);
    return () => document.removeEventListener("keydown", keep, true);
  }, [ended]);

  const signIn = `/${slug}/sign-in?${new URLSearchParams({ next: path, lang: locale }).toString()}`;
  if (!ended && person === null) return <span className="ml-3 rounded-md bg-slate-700 px-2 py-0.5 text-sm font-medium">{t("signedInAs", { role })}</span>;
  if (!ended && person !== null)
    return (
      <>
        <span data-testid="signed-in-person" className="ml-3 rounded-md bg-slate-700 px-2 py-0.5 text-base font-semibold">
          {t("signedInPerson", { name: person, role })}
        </span>
        <a
          href={signIn}
          title={t("switchPersonHint")}
          className="ml-2 inline-block rounded-md border border-slate-400 px-2.5 py-0.5 text-base font-medium text-white hover:bg-slate-700 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-400"
        >
          {t("switchPerson")}
        </a>
      </>
    );
  return (
    <>
      <span data-testid="signed-out" className="ml-3 rounded-md bg-red-700 px-2 py-0.5 text-sm font-bold">
        {t("signedOut")}
      </span>
      {/* Over the whole screen, outside the header's paragraph (a div may not stand in a p). */}
      {createPortal(
        <div className="fixed inset-0 z-50 flex items-center justify-center bg-slate-950/70 p-4">
          <div
            role="alertdialog"
            aria-modal="true"
            aria-labelledby="signed-out-title"
            aria-describedby="signed-out-text"
            className="max-w-lg rounded-2xl border-4 border-red-700 bg-white p-6 text-slate-950 shadow-xl"
          >
            <h2 id="signed-out-title" className="text-3xl font-extrabold">
              {t("signedOutTitle")}
            </h2>
            <p id="signed-out-text" className="mt-3 text-lg font-normal">
              {t("signedOutText")}
            </p>
            <a
              ref={again}
              href={signIn}
              data-testid="sign-in-again"
              className="mt-5 inline-block rounded-xl bg-slate-900 px-6 py-3 text-xl font-bold text-white hover:bg-slate-700 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-400"
            >
              {t("signInAgain")}
            </a>
          </div>
        </div>,
        document.body,
      )}
    </>
  );
}
