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

/** "Saturday 21 November 2026" for a business day "2026-11-21". */
export function formatBusinessDay(day: string): string {
  const d = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return day;
  return new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", weekday: "long", day: "numeric", month: "long", year: "numeric" }).format(d);
}

/** "just now", "1 min", "12 min", "1 h 05 min" — how long an order has been waiting. */
export function formatAge(fromIso: string, nowMs: number): string {
  const minutes = Math.max(0, Math.floor((nowMs - new Date(fromIso).getTime()) / 60_000));
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  return `${h} h ${String(minutes % 60).padStart(2, "0")} min`;
}
