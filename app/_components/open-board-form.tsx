"use client";

import { useActionState, useState } from "react";
import { useTranslations } from "next-intl";
import { openBoard } from "@/app/actions";
import { FormError } from "./form-error";

const SLUG_RE = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

const SCREENS = ["board", "kiosk", "kitchen", "manager", "sign-in"] as const;

/** The slug form, plus links to each screen that follow what is typed. */
export function OpenBoardForm() {
  const t = useTranslations("home");
  const [state, formAction, pending] = useActionState(openBoard, null);
  const error = state && !state.ok ? state.error : null;
  const [slug, setSlug] = useState("");
  const clean = slug.trim().toLowerCase();
  const valid = clean.length >= 2 && SLUG_RE.test(clean);

  return (
    <div className="space-y-8">
      <form action={formAction} className="space-y-3" noValidate>
        <label htmlFor="slug" className="block text-xl font-bold">
          {t("addressLabel")}
        </label>
        <div className="flex flex-col gap-3 sm:flex-row">
          <div className="flex flex-1 items-center rounded-xl border-2 border-slate-400 bg-white focus-within:border-blue-700 focus-within:ring-4 focus-within:ring-blue-200">
            <span aria-hidden="true" className="pl-4 text-xl text-slate-500">
              /
            </span>
            <input
              id="slug"
              name="slug"
              value={slug}
              onChange={(e) => setSlug(e.target.value)}
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              autoComplete="off"
              placeholder="pizza-roma"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "slug-error" : "slug-hint"}
              className="min-w-0 flex-1 rounded-xl bg-transparent px-1 py-3 text-2xl focus:outline-none"
            />
          </div>
          <button
            type="submit"
            disabled={pending}
            className="rounded-xl bg-blue-700 px-6 py-3 text-xl font-bold text-white hover:bg-blue-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300 disabled:opacity-70"
          >
            {t("open")}
          </button>
        </div>
        <p id="slug-hint" className="text-slate-600">
          {t.rich("addressHint", { example: (chunks) => <code className="rounded bg-slate-200 px-1">{chunks}</code> })}
        </p>
        <FormError id="slug-error" message={error} />
      </form>

      <nav aria-labelledby="screens-heading">
        <h2 id="screens-heading" className="mb-3 text-xl font-bold">
          {t("screensHeading")}
        </h2>
        <ul className="grid gap-3 sm:grid-cols-2">
          {SCREENS.map((path) => {
            const s = { title: t(`screens.${path}.title`), text: t(`screens.${path}.text`) };
            const href = `/${valid ? clean : "your-restaurant"}/${path}`;
            return (
              <li key={path}>
                {valid ? (
                  <a
                    href={href}
                    className="block rounded-xl border-2 border-slate-300 bg-white p-4 hover:border-blue-700 hover:bg-blue-50 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300"
                  >
                    <span className="block text-lg font-bold text-blue-800">{s.title}</span>
                    <span className="block text-slate-700">{s.text}</span>
                    <span className="block text-sm text-slate-500">{href}</span>
                  </a>
                ) : (
                  <div className="rounded-xl border-2 border-dashed border-slate-300 p-4">
                    <span className="block text-lg font-bold text-slate-800">{s.title}</span>
                    <span className="block text-slate-700">{s.text}</span>
                    <span className="block text-sm text-slate-500">{href}</span>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
        {!valid ? <p className="mt-2 text-slate-600">{t("typeToLink")}</p> : null}
      </nav>
    </div>
  );
}
