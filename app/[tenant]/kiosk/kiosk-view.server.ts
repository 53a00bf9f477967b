import type { MenuSection } from "@/lib/core/menu";
import { seriesOf, type Series } from "@/lib/core/series";
import type { Tenant } from "@/lib/core/tenants";
import type { App } from "@/lib/server/app.server";

/** What an open kiosk shows besides the form: the menu and the two settings it uses. */
export interface KioskView {
  /** Categories with at least one item; sold-out items stay (disabled, "Sold out"). */
  menu: MenuSection[];
  /** ISO 4217 code of the prices; null: amounts without a symbol. */
  currency: string | null;
  /** Only a big "Next number" button: the restaurant takes orders on another till. */
  numberOnly: boolean;
  /** The restaurant's number series, the default first: a kiosk device may choose one. */
  series: Series[];
}

export async function kioskView(app: App, tenant: Tenant): Promise<KioskView> {
  const menu = (await app.menu.menu(tenant)).filter((s) => s.items.length > 0);
  return { menu, currency: tenant.floor.currency, numberOnly: tenant.floor.kioskNumberOnly, series: [...seriesOf(tenant)] };
}
