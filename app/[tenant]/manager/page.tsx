import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { requireStaff } from "@/lib/edges/next/staff.server";
import { getApp } from "@/lib/server/app-context";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { managerData } from "./manager-data.server";
import { ShiftPanel } from "./shift-panel";
import { BackupNote } from "./backup-note";
import { PushNote } from "./push-note";
import { ConsoleShell } from "./_components/console-shell";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("manager"))("title") };
}

const SCREENS = ["kiosk", "kitchen", "board"] as const;

export default async function ManagerPage({ params }: { params: Promise<{ tenant: string }> }) {
  const { tenant: slug } = await params;
  await tenantOr404(slug);
  const caller = await requireStaff(slug, ["MANAGER"], `/${slug}/manager`);
  const tenant = caller.tenant;
  const [initial, t] = await Promise.all([managerData(getApp(), tenant), getTranslations("manager")]);

  return (
    <ConsoleShell caller={caller} section="">
      <ShiftPanel slug={tenant.slug} initial={initial} />
      <section aria-labelledby="screens" className="pt-8">
        <h2 id="screens" className="mb-3 text-2xl font-bold">
          {t("screensHeading")}
        </h2>
        <ul className="grid gap-3 sm:grid-cols-3">
          {SCREENS.map((path) => (
            <li key={path}>
              <Link
                href={`/${tenant.slug}/${path}`}
                className="block h-full rounded-xl border-2 border-slate-300 bg-white p-4 hover:border-blue-700 hover:bg-blue-50 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300"
              >
                <span className="block text-xl font-bold text-blue-800">{t(`screens.${path}.title`)}</span>
                <span className="text-slate-700">{t(`screens.${path}.text`)}</span>
                <span className="mt-1 block text-sm text-slate-500">
                  /{tenant.slug}/{path}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <BackupNote timeZone={tenant.timeZone} />
      <PushNote tenantId={tenant.id} />
    </ConsoleShell>
  );
}
