"use client";

import Link from "next/link";
import { useEffect } from "react";
import { useTranslations } from "next-intl";

/** Unexpected errors (a bug, or the database unreachable): say so plainly and offer a retry. */
export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  const t = useTranslations("home.error");
  const tn = useTranslations("home.notFound");
  const digest = error instanceof Error ? (error as Error & { digest?: string }).digest : undefined;

  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col justify-center px-5 py-12">
      <p className="text-lg font-semibold text-blue-800">Nextup</p>
      <h1 className="mt-1 text-4xl font-extrabold tracking-tight">{t("title")}</h1>
      <p role="alert" className="mt-4 text-xl text-slate-700">
        {t("text")}
      </p>
      {digest ? <p className="mt-2 text-sm text-slate-500">{t("reference", { digest })}</p> : null}
      <div className="mt-8 flex flex-wrap gap-3">
        <button
          type="button"
          onClick={() => retry()}
          className="rounded-xl bg-blue-700 px-6 py-3 text-xl font-bold text-white hover:bg-blue-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300"
        >
          {t("retry")}
        </button>
        <Link href="/" className="rounded-xl border-2 border-slate-400 px-6 py-3 text-xl font-bold text-slate-900 hover:bg-slate-100">
          {tn("home")}
        </Link>
      </div>
    </main>
  );
}
