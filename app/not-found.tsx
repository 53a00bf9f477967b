import Link from "next/link";
import { getTranslations } from "next-intl/server";

export default async function NotFound() {
  const t = await getTranslations("home.notFound");
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col justify-center px-5 py-12">
      <p className="text-lg font-semibold text-blue-800">Nextup</p>
      <h1 className="mt-1 text-4xl font-extrabold tracking-tight">{t("title")}</h1>
      <p className="mt-4 text-xl text-slate-700">{t("text")}</p>
      <p className="mt-8">
        <Link
          href="/"
          className="rounded-xl bg-blue-700 px-6 py-3 text-xl font-bold text-white hover:bg-blue-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300"
        >
          {t("home")}
        </Link>
      </p>
    </main>
  );
}
