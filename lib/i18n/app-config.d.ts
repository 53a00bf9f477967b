// Types next-intl's keys and locales: a missing or misspelt message key fails the type-check.
import type { Locale } from "@/lib/core/locales";
import type { Messages } from "./messages";

declare module "next-intl" {
  interface AppConfig {
    Locale: Locale;
    Messages: Messages;
  }
}
