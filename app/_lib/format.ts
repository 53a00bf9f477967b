/** Date formatting shared by server and client components (pure, no server imports). */

const formats = new Map<string, Intl.DateTimeFormat>();

/** The Intl locale of a screen language: British English (day first) or the language itself. */
const intlLocale = (locale: string) => (locale === "en" ? "en-GB" : locale);

function formatter(timeZone: string, parts: { date?: "year" | "day"; seconds?: boolean }, locale: string): Intl.DateTimeFormat {
  const id = `${locale}|${timeZone}|${parts.date ?? ""}|${parts.seconds ?? false}`;
  let f = formats.get(id);
  if (!f) {
    f = new Intl.DateTimeFormat(intlLocale(locale), {
      timeZone,
      ...(parts.date === "year" ? { year: "numeric" } : {}),
      ...(parts.date ? { month: "2-digit", day: "2-digit" } : {}),
      hour: "2-digit",
      minute: "2-digit",
      ...(parts.seconds ? { second: "2-digit" } : {}),
      // 24-hour in every language.
      hourCycle: "h23",
    });
    formats.set(id, f);
  }
  return f;
}

/** "14:05" in the restaurant's time zone (the same in every language). */
export function formatTime(at: Date | string, timeZone: string, locale: string = "en"): string {
  return formatter(timeZone, {}, locale).format(typeof at === "string" ? new Date(at) : at);
}

/**
 * A moment in the console's lists, in the restaurant's time zone and the screen's language:
 * "23/11/2026, 14:05" (zh-CN: "2026/11/23 14:05") by default; `date: "day"` leaves out the
 * year, `seconds` adds them.
 */
export function formatDateTime(at: Date, timeZone: string, parts: { date?: "year" | "day"; seconds?: boolean } = {}, locale: string = "en"): string {
  return formatter(timeZone, { date: parts.date ?? "year", seconds: parts.seconds }, locale).format(at);
}

/** "Saturday 21 November 2026" (zh-CN: "2026年11月21日星期六") for a business day "2026-11-21". */
export function formatBusinessDay(day: string, locale: string = "en"): string {
  const d = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return day;
  return new Intl.DateTimeFormat(intlLocale(locale), {
    timeZone: "UTC",
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
  }).format(d);
}

/** "24 Nov" (zh-CN: "11月24日") for a business day "2026-11-24": where an earlier day's order is marked. */
export function formatShortDay(day: string, locale: string = "en"): string {
  const d = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return day;
  return new Intl.DateTimeFormat(intlLocale(locale), { timeZone: "UTC", day: "numeric", month: "short" }).format(d);
}

/** "Sat 28 Nov 2026" (zh-CN: "2026年11月28日周六") for a picked day "2026-11-28": its month in words, never 11/28 or 28/11. */
export function formatPickedDay(day: string, locale: string = "en"): string {
  const d = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return day;
  return new Intl.DateTimeFormat(intlLocale(locale), { timeZone: "UTC", weekday: "short", day: "numeric", month: "short", year: "numeric" }).format(d);
}
