import type { AskService, Service } from "@/lib/core/orders";
import { seriesOf, type Series } from "@/lib/core/series";
import type { Tenant } from "@/lib/core/tenants";
import type { App } from "@/lib/server/app.server";
import { kioskMenu, type KioskSection } from "./kiosk-lines";

/** What an open kiosk shows besides the form: the menu and the settings it uses. */
export interface KioskView {
  /** Categories with at least one item; sold-out items stay (disabled, "Sold out"). Each dish carries the option groups it offers. */
  menu: KioskSection[];
  /** ISO 4217 code of the prices; null: amounts without a symbol. */
  currency: string | null;
  /** Only a big "Next number" button: the restaurant takes orders on another till. */
  numberOnly: boolean;
  /** The restaurant's number series, the default first: a kiosk device may choose one. */
  series: Series[];
  /** Whether the cashier states eat in or take away: not at all, for every order, or keeping this device's last choice. */
  askService: AskService;
  /** Where "remember" starts on a device that never chose: the restaurant's default. */
  defaultService: Service;
}

export async function kioskView(app: App, tenant: Tenant): Promise<KioskView> {
  return {
    menu: kioskMenu(await app.menu.menu(tenant)),
    currency: tenant.floor.currency,
    numberOnly: tenant.floor.kioskNumberOnly,
    series: [...seriesOf(tenant)],
    askService: tenant.floor.askService,
    defaultService: tenant.floor.defaultService,
  };
}
