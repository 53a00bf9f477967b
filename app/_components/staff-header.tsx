import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { StaffRole, Tenant } from "@/lib/core/tenants";
import { roleAllows } from "@/lib/auth/roles";
import { signOut } from "@/app/[tenant]/sign-in/actions";
import { signedIn } from "@/app/_lib/signed-in.server";
import { LanguageSwitcher } from "./language-switcher";
import { SessionWatch } from "./session-watch";

type Screen = "kiosk" | "kitchen" | "manager" | "board";

const SCREENS: { screen: Screen; needs: StaffRole | null }[] = [
  { screen: "kiosk", needs: "CASHIER" },
  { screen: "kitchen", needs: "KITCHEN" },
  { screen: "manager", needs: "MANAGER" },
  { screen: "board", needs: null },
];

/**
 * The small bar on every staff screen: where am I, who am I ("Li Wei · Kitchen" for a person,
 * with "Switch person" for a shared tablet; "Signed in as Kitchen" for a role's shared code),
 * the other screens, sign out.
 */
export async function StaffHeader({ tenant, role, current }: { tenant: Tenant; role: StaffRole; current: Screen }) {
  const [t, who] = await Promise.all([getTranslations("staff"), signedIn(tenant)]);
  const screens = SCREENS.filter((s) => s.needs === null || roleAllows(role, [s.needs]));
  return (
    <header className="border-b border-slate-800 bg-slate-900 text-white print:hidden">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
        <p className="text-lg font-bold">
          {tenant.name}
          <SessionWatch slug={tenant.slug} role={role} person={who.person} />
        </p>
        <nav aria-label={t("screens")} className="flex flex-wrap gap-1">
          {screens.map((s) => (
            <Link
              key={s.screen}
              href={`/${tenant.slug}/${s.screen}`}
              aria-current={s.screen === current ? "page" : undefined}
              target={s.screen === "board" ? "_blank" : undefined}
              className="rounded-md px-3 py-1.5 text-base font-medium text-slate-200 hover:bg-slate-700 hover:text-white aria-[current=page]:bg-white aria-[current=page]:text-slate-900"
            >
              {t(`screen.${s.screen}`)}
              {s.screen === "board" ? <span className="sr-only"> {t("opensInNewTab")}</span> : null}
            </Link>
          ))}
        </nav>
        <div className="ml-auto">
          <LanguageSwitcher tone="dark" />
        </div>
        <form action={signOut}>
          <input type="hidden" name="tenant" value={tenant.slug} />
          <button
            type="submit"
            className="rounded-md border border-slate-500 px-3 py-1.5 text-base font-medium hover:bg-slate-700 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-400"
          >
            {t("signOut")}
          </button>
        </form>
      </div>
    </header>
  );
}
