/**
 * The message catalogues: one JSON file per screen (namespace) and language under
 * messages/<locale>/. A screen reads its namespace with useTranslations("<name>").
 */
import type { Locale } from "@/lib/core/locales";
import enCommon from "./messages/en/common.json";
import enBoard from "./messages/en/board.json";
import enKitchen from "./messages/en/kitchen.json";
import enCustomer from "./messages/en/customer.json";
import enKiosk from "./messages/en/kiosk.json";
import enManager from "./messages/en/manager.json";
import enSignIn from "./messages/en/signIn.json";
import enHome from "./messages/en/home.json";
import enStaff from "./messages/en/staff.json";
import enManagerHistory from "./messages/en/managerHistory.json";
import enManagerFigures from "./messages/en/managerFigures.json";
import enManagerMenu from "./messages/en/managerMenu.json";
import enManagerSettings from "./messages/en/managerSettings.json";
import enManagerAccess from "./messages/en/managerAccess.json";
import enManagerAudit from "./messages/en/managerAudit.json";
import enManagerWebhooks from "./messages/en/managerWebhooks.json";
import enManagerSeries from "./messages/en/managerSeries.json";
import enManagerPrinters from "./messages/en/managerPrinters.json";
import enManagerStations from "./messages/en/managerStations.json";
import zhCommon from "./messages/zh-CN/common.json";
import zhBoard from "./messages/zh-CN/board.json";
import zhKitchen from "./messages/zh-CN/kitchen.json";
import zhCustomer from "./messages/zh-CN/customer.json";
import zhKiosk from "./messages/zh-CN/kiosk.json";
import zhManager from "./messages/zh-CN/manager.json";
import zhSignIn from "./messages/zh-CN/signIn.json";
import zhHome from "./messages/zh-CN/home.json";
import zhStaff from "./messages/zh-CN/staff.json";
import zhManagerHistory from "./messages/zh-CN/managerHistory.json";
import zhManagerFigures from "./messages/zh-CN/managerFigures.json";
import zhManagerMenu from "./messages/zh-CN/managerMenu.json";
import zhManagerSettings from "./messages/zh-CN/managerSettings.json";
import zhManagerAccess from "./messages/zh-CN/managerAccess.json";
import zhManagerAudit from "./messages/zh-CN/managerAudit.json";
import zhManagerWebhooks from "./messages/zh-CN/managerWebhooks.json";
import zhManagerSeries from "./messages/zh-CN/managerSeries.json";
import zhManagerPrinters from "./messages/zh-CN/managerPrinters.json";
import zhManagerStations from "./messages/zh-CN/managerStations.json";

const CATALOGUES = {
  en: {
    common: enCommon,
    board: enBoard,
    kitchen: enKitchen,
    customer: enCustomer,
    kiosk: enKiosk,
    manager: enManager,
    signIn: enSignIn,
    home: enHome,
    staff: enStaff,
    managerHistory: enManagerHistory,
    managerFigures: enManagerFigures,
    managerMenu: enManagerMenu,
    managerSettings: enManagerSettings,
    managerAccess: enManagerAccess,
    managerAudit: enManagerAudit,
    managerWebhooks: enManagerWebhooks,
    managerSeries: enManagerSeries,
    managerPrinters: enManagerPrinters,
    managerStations: enManagerStations,
  },
  "zh-CN": {
    common: zhCommon,
    board: zhBoard,
    kitchen: zhKitchen,
    customer: zhCustomer,
    kiosk: zhKiosk,
    manager: zhManager,
    signIn: zhSignIn,
    home: zhHome,
    staff: zhStaff,
    managerHistory: zhManagerHistory,
    managerFigures: zhManagerFigures,
    managerMenu: zhManagerMenu,
    managerSettings: zhManagerSettings,
    managerAccess: zhManagerAccess,
    managerAudit: zhManagerAudit,
    managerWebhooks: zhManagerWebhooks,
    managerSeries: zhManagerSeries,
    managerPrinters: zhManagerPrinters,
    managerStations: zhManagerStations,
  },
} satisfies Record<Locale, Record<string, unknown>>;

export type Messages = (typeof CATALOGUES)["en"];

export function messagesFor(locale: Locale): Messages {
  return CATALOGUES[locale];
}
