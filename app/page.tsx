import { getTranslations } from "next-intl/server";
import { getApp } from "@/lib/server/app-context";
import { OpenBoardForm } from "./_components/open-board-form";
import { LanguageSwitcher } from "./_components/language-switcher";

export const dynamic = "force-dynamic";

/** In development only: a shortcut to the demo restaurant `npm run dev` creates. */
async function demoSlug(): Promise<string | null> {
  try {
    const app = getApp();
    if (app.env.NODE_ENV === "production") return null;
    return (await app.tenants.find("demo")) ? "demo" : null;
  } catch {
    return null;
  }
}

export default async function HomePage() {
  const demo = await demoSlug();
  const t = await getTranslations("home");
  return (
    <main className="mx-auto max-w-3xl px-5 py-12">
      <div className="flex items-center justify-between gap-4">
        <p className="text-lg font-semibold text-blue-800">Nextup</p>
        <LanguageSwitcher />
      </div>
      <h1 className="mt-1 text-5xl font-extrabold tracking-tight">{t("tagline")}</h1>
      <p className="mt-4 text-xl text-slate-700">{t("intro")}</p>

      <div className="mt-10 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <OpenBoardForm />
      </div>

      {demo ? (
        <aside className="mt-8 rounded-xl border-2 border-dashed border-amber-500 bg-amber-50 p-5 text-amber-950">
          <h2 className="text-lg font-bold">{t("demoHeading")}</h2>
          <p className="mt-1">
            {t("demoCodes")} <code>demo-cashier</code>, <code>demo-kitchen</code>, <code>demo-manager</code>.
          </p>
          <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 font-semibold">
            {["board", "kiosk", "kitchen", "manager"].map((p) => (
              <li key={p}>
                <a className="underline" href={`/${demo}/${p}`}>
                  /{demo}/{p}
                </a>
              </li>
            ))}
          </ul>
        </aside>
      ) : null}
    </main>
  );
}
