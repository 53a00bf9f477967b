/** What the customer's phone shows (decision 0053): the restaurant, the number as the board shows it, a link to the order. */
import { displayNumber } from "../display-number";
import { asLocale, type Locale } from "../locales";

export type PushKind = "ready" | "again";

export interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
  number: string;
}

const BODY: Record<Locale, Record<PushKind, (n: string) => string>> = {
  en: {
    ready: (n) => `Your order ${n} is ready`,
    again: (n) => `Number ${n} is being called again — please collect it`,
  },
  "zh-CN": {
    ready: (n) => `您的 ${n} 号已备好，请取餐`,
    again: (n) => `${n} 号再次叫号，请尽快取餐`,
  },
};

export function pushPayload(p: {
  kind: PushKind;
  lang: string;
  restaurant: string;
  slug: string;
  orderId: string;
  prefix: string;
  number: number;
}): PushPayload {
  const n = displayNumber(p.prefix, p.number);
  const lang = asLocale(p.lang) ?? "en";
  return {
    title: p.restaurant,
    body: BODY[lang][p.kind](n),
    url: `/${p.slug}/o/${p.orderId}`,
    tag: `order-${p.orderId}`,
    number: n,
  };
}

/** The Topic header: one per order (a later push replaces an undelivered earlier one); 32 base64url characters. */
export const pushTopic = (orderId: string): string => orderId.replace(/-/g, "");
