/** Date formatting shared by server and client components (pure, no server imports). */

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** "14:05" in the restaurant's time zone. */
export function formatTime(at: Date | string, timeZone: string): string {
  let f = timeFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    timeFormats.set(timeZone, f);
  }
  return f.format(typeof at === "string" ? new Date(at) : at);
}

/** "Saturday 21 November 2026" (zh-CN: "2026年11月21日星期六") for a business day "2026-11-21". */
export function formatBusinessDay(day: string, locale: string = "en"): string {
  const d = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return day;
  return new Intl.DateTimeFormat(locale === "en" ? "en-GB" : locale, {
    timeZone: "UTC",
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
  }).format(d);
}
