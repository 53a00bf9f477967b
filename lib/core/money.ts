/**
 * Money on the kiosk and its ticket: totals are summed in minor units (integers: the
 * `priceCents` of the menu, hundredths of the currency's main unit), never in floats, and
 * turned into text only at the end, in the screen's language and the restaurant's currency.
 */
import type { OrderItem } from "./orders";

/** ISO 4217 codes this runtime knows (EUR, CNY, USD, …). */
const KNOWN_CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf("currency"));

/** An ISO 4217 code, upper case, that Intl can format ("EUR" yes; "eur", "EURO", "XYZ" no). */
export function isCurrencyCode(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && KNOWN_CURRENCIES.has(code);
}

/** What an order costs: `cents` of the lines with a price; `unpriced` lines had none (free text). */
export interface OrderTotal {
  cents: number;
  /** Lines left out of `cents` because they carry no price. */
  unpriced: number;
}

/** Largest total we add up exactly (no float drift: every step stays a safe integer). */
const MAX_TOTAL = Number.MAX_SAFE_INTEGER;

/**
 * The total of an order's lines: price × quantity of each priced line, in minor units.
 * Null when no line has a price (there is nothing to show). Throws on a non-integer or
 * negative price or quantity: those are bugs upstream, not amounts to round.
 */
export function orderTotal(items: readonly Pick<OrderItem, "qty" | "priceCents">[]): OrderTotal | null {
  let cents = 0;
  let priced = 0;
  let unpriced = 0;
  for (const item of items) {
    if (!Number.isSafeInteger(item.qty) || item.qty < 0) throw new RangeError(`Quantity must be a whole number, got ${item.qty}`);
    if (item.priceCents === undefined) {
      unpriced++;
      continue;
    }
    if (!Number.isSafeInteger(item.priceCents) || item.priceCents < 0) throw new RangeError(`Price must be whole minor units, got ${item.priceCents}`);
    cents += item.priceCents * item.qty;
    if (cents > MAX_TOTAL) throw new RangeError("Total too large to add up exactly");
    priced++;
  }
  return priced === 0 ? null : { cents, unpriced };
}

/**
 * Minor units as text: with a currency, "€12.50" / "¥12.50" / "CN¥12.50" as `locale`
 * writes it; without one (the restaurant set none), the number alone, "12.50". A whole
 * amount in a currency without minor units shows none ("¥1,200" for JPY); hundredths are
 * never rounded away.
 */
export function formatMoney(cents: number, locale: string, currency: string | null): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Amount must be whole minor units, got ${cents}`);
  const abs = Math.abs(cents);
  // One correctly rounded division at the very end: 1999 → 19.99, printed with 2 digits exactly.
  const value = cents / 100;
  const base: Intl.NumberFormatOptions = currency ? { style: "currency", currency } : { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  const digits = currency ? new Intl.NumberFormat(locale, base).resolvedOptions().maximumFractionDigits : 2;
  // A currency without minor units (JPY) still shows a price typed with cents rather than rounding it.
  const keepCents = abs % 100 !== 0 && (digits ?? 2) < 2;
  return new Intl.NumberFormat(locale, keepCents ? { ...base, minimumFractionDigits: 2, maximumFractionDigits: 2 } : base).format(value);
}
