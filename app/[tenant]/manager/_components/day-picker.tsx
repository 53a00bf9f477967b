import Link from "next/link";
import { DateField } from "@/app/_components/date-field";
import { addDays } from "@/lib/core/business-day";
import { isCalendarDay } from "@/lib/core/reports/report-queries";

export interface DayPickerLabels {
  label: string;
  show: string;
  previous: string;
  next: string;
  today: string;
}

const linkClass =
  "inline-flex min-h-12 items-center rounded-lg border-2 border-slate-300 bg-white px-4 text-lg font-semibold text-blue-800 hover:border-blue-700 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300";

/**
 * A business-day picker for report pages: a plain GET form (works without JavaScript)
 * with previous/next day links. The next-day link stops at today.
 */
export function DayPicker({ path, day, today, labels }: { path: string; day: string; today: string; labels: DayPickerLabels }) {
  const href = (d: string) => `${path}?day=${d}`;
  return (
    <div className="flex flex-wrap items-end gap-3 print:hidden">
      <form method="get" action={path} className="flex flex-wrap items-end gap-3">
        {/* Keyed by the day: a link to another day starts the field afresh. */}
        <DateField key={day} label={labels.label} name="day" defaultValue={day} max={today} />
        <button
          type="submit"
          className="min-h-12 rounded-lg bg-blue-700 px-5 text-lg font-bold text-white hover:bg-blue-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300"
        >
          {labels.show}
        </button>
      </form>
      <nav aria-label={labels.label} className="flex flex-wrap gap-2">
        <Link href={href(addDays(day, -1))} rel="prev" className={linkClass}>
          ← {labels.previous}
        </Link>
        {day < today ? (
          <Link href={href(addDays(day, 1))} rel="next" className={linkClass}>
            {labels.next} →
          </Link>
        ) : null}
        {day !== today ? (
          <Link href={path} className={linkClass}>
            {labels.today}
          </Link>
        ) : null}
      </nav>
    </div>
  );
}

/** The `day` of a page's query when it is a real date, else null (the page then shows today and says so). */
export function requestedDay(raw: string | string[] | undefined): { day: string | undefined; bad: boolean } {
  const v = Array.isArray(raw) ? raw[0] : raw;
  if (v === undefined || v === "") return { day: undefined, bad: false };
  return isCalendarDay(v) ? { day: v, bad: false } : { day: undefined, bad: true };
}
