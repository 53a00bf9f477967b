import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { requireStaff } from "@/lib/edges/next/staff.server";
import { getApp } from "@/lib/server/app-context";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { ConsoleShell } from "../_components/console-shell";
import { MenuEditor } from "./menu-editor";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("managerMenu"))("title") };
}

export default async function ManagerMenuPage({ params }: { params: Promise<{ tenant: string }> }) {
  const { tenant: slug } = await params;
  await tenantOr404(slug);
  const caller = await requireStaff(slug, ["MANAGER"], `/${slug}/manager/menu`);
  const [sections, t] = await Promise.all([getApp().menu.menu(caller.tenant), getTranslations("managerMenu")]);
  // The live stations the cached restaurant carries, in screen order: none, and the editor shows no station selects.
  const stations = (caller.tenant.stations ?? []).map((s) => ({ id: s.id, name: s.name, isDefault: s.isDefault }));
  return (
    <ConsoleShell caller={caller} section="menu">
      <h1 className="text-3xl font-extrabold tracking-tight">{t("title")}</h1>
      <p className="mt-1 mb-6 max-w-3xl text-lg text-slate-700">{t("intro")}</p>
      <MenuEditor slug={caller.tenant.slug} sections={sections} stations={stations} />
    </ConsoleShell>
  );
}
