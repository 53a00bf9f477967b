import type { ReactNode } from "react";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { StaffHeader } from "@/app/_components/staff-header";
import type { Caller } from "@/lib/auth/access.server";

/** The console's pages, in the order of its navigation; "" is the overview at /{tenant}/manager. */
export const CONSOLE_SECTIONS = ["", "history", "figures", "menu", "settings", "series", "stations", "printers", "access", "webhooks", "audit"] as const;
export type ConsoleSection = (typeof CONSOLE_SECTIONS)[number];

/** Every console page: the staff bar, the console's own navigation, then the page. */
export async function ConsoleShell({ caller, section, children }: { caller: Caller; section: ConsoleSection; children: ReactNode }) {
  const t = await getTranslations("manager.nav");
  const slug = caller.tenant.slug;
  return (
    <>
      <StaffHeader tenant={caller.tenant} role={caller.role} current="manager" />
      <nav aria-label={t("label")} className="border-b border-slate-300 bg-white print:hidden">
        <ul className="mx-auto flex max-w-6xl flex-wrap gap-1 px-4 py-2">
          {CONSOLE_SECTIONS.map((s) => (
            <li key={s || "overview"}>
              <Link
                href={`/${slug}/manager${s ? `/${s}` : ""}`}
                aria-current={s === section ? "page" : undefined}
                className="block rounded-md px-2 py-2 text-base font-semibold text-slate-700 hover:bg-slate-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300 aria-[current=page]:bg-blue-700 aria-[current=page]:text-white"
              >
                {t(s || "overview")}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main className="mx-auto max-w-6xl px-4 py-6">{children}</main>
    </>
  );
}

/** A console page's title and the line that says what it is for. */
export function PageHeading({ title, intro }: { title: string; intro?: string }) {
  return (
    <div className="mb-6">
      <h1 className="text-3xl font-extrabold tracking-tight">{title}</h1>
      {intro ? <p className="mt-1 text-lg text-slate-700">{intro}</p> : null}
    </div>
  );
}
