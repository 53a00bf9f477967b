import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { isAppError } from "@/lib/core/errors";
import { lastMoveBy, readiedBy } from "@/lib/core/orders";
import type { FoundByNumber } from "@/lib/core/reports/report-service";
import { displayNumber, seriesNameOf } from "@/lib/core/series";
import { MAX_EXPORT_DAYS } from "@/lib/core/reports/report-queries";
import { requireStaff } from "@/lib/edges/next/staff.server";
import { getApp } from "@/lib/server/app-context";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { formatBusinessDay, formatTime } from "@/app/_lib/format";
import { auditActor } from "@/lib/core/audit-sentences";
import { sentenceText } from "../audit/sentence-text";
import { FormError } from "@/app/_components/form-error";
import { ItemList } from "@/app/_components/item-list";
import { ConsoleShell, PageHeading } from "../_components/console-shell";
import { ColumnHeads } from "../_components/column-heads";
import { DayPicker, requestedDay } from "../_components/day-picker";
import { DateField } from "@/app/_components/date-field";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("managerHistory"))("title") };
}

type Search = Record<string, string | string[] | undefined>;

const inputClass = "mt-1 min-h-12 rounded-lg border-2 border-slate-400 px-3 text-lg font-normal";
const buttonClass =
  "min-h-12 rounded-lg bg-blue-700 px-5 text-lg font-bold text-white hover:bg-blue-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300";

export default async function HistoryPage({ params, searchParams }: { params: Promise<{ tenant: string }>; searchParams: Promise<Search> }) {
  const { tenant: slug } = await params;
  await tenantOr404(slug);
  const caller = await requireStaff(slug, ["MANAGER"], `/${slug}/manager/history`);
  const tenant = caller.tenant;
  const app = getApp();
  const search = await searchParams;
  const [t, tStatus, ta, locale] = await Promise.all([
    getTranslations("managerHistory"),
    getTranslations("manager.status"),
    getTranslations("managerAudit"),
    getLocale(),
  ]);
  const say = sentenceText(ta);

  const asked = requestedDay(search.day);
  const today = app.reports.today(tenant);
  const history = await app.reports.history(tenant, asked.day ? { day: asked.day } : {});
  const day = history.businessDay;
  const dayText = formatBusinessDay(day, locale);
  const time = (d: Date) => formatTime(d, tenant.timeZone);
  // "12:05 · by Li Wei": who made the change, when the order's history names them (not for changes made by a release
  // before people, nor an API key without a label).
  const timeBy = (d: Date, by: string | null) => (by ? t("find.by", { time: time(d), name: by }) : time(d));

  // Find by number: the service validates; a bad number gets the page's own words.
  const rawNumber = typeof search.number === "string" ? search.number.trim() : undefined;
  let found: FoundByNumber | null = null;
  let findError: string | null = null;
  if (rawNumber !== undefined && rawNumber !== "") {
    try {
      found = await app.reports.findByNumber(tenant, { number: rawNumber, day });
    } catch (e) {
      if (!isAppError(e) || e.code !== "BAD_INPUT") throw e;
      findError = t("find.bad");
    }
  }

  // "12" that more than one series shows (12, K12): the list holds them all, and says how to ask for one.
  const severalSeries = found && found.prefix === null ? [...new Set(found.orders.map((o) => displayNumber(o.prefix, o.number)))].sort() : [];
  const path = `/${tenant.slug}/manager/history`;
  return (
    <ConsoleShell caller={caller} section="history">
      <div className="space-y-8">
        <PageHeading title={t("title")} intro={t("intro")} />
        {asked.bad ? <FormError message={t("badDay")} /> : null}
        <DayPicker
          path={path}
          day={day}
          today={today}
          labels={{ label: t("day.label"), show: t("day.show"), previous: t("day.previous"), next: t("day.next"), today: t("day.today") }}
        />

        <section aria-labelledby="shifts-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="shifts-heading" className="text-2xl font-bold">
            {t("shiftsHeading", { day: dayText })}
          </h2>
          {history.shifts.length === 0 ? (
            <p className="mt-2 text-lg text-slate-700">{t("noShifts")}</p>
          ) : (
            <div className="mt-4 overflow-x-auto">
              <table className="w-full text-left text-lg" data-testid="shift-history">
                <ColumnHeads labels={(["shift", "started", "trigger", "by", "reason", "orders", "numbers"] as const).map((c) => t(`col.${c}`))} />
                <tbody>
                  {history.shifts.map((s) => (
                    <tr key={s.shift} className="border-b border-slate-200" data-testid={`shift-row-${s.shift}`}>
                      <th scope="row" className="px-2 py-2 font-bold tabular-nums">
                        {s.shift}
                      </th>
                      <td className="px-2 py-2 tabular-nums">{time(s.startedAt)}</td>
                      <td className="px-2 py-2">{t(`trigger.${s.trigger}`)}</td>
                      <td className="px-2 py-2">{s.startedBy ? say(auditActor(s.startedBy)) : t("dayStart")}</td>
                      <td className="px-2 py-2 break-words">{s.reason ?? ""}</td>
                      <td className="px-2 py-2 tabular-nums">{s.orders}</td>
                      <td className="px-2 py-2 tabular-nums">
                        {s.lastNumber === null && s.series.length === 0 ? t("noNumbers") : null}
                        {s.lastNumber === null ? null : <span className="block">{t("numberRange", { first: s.firstNumber, last: s.lastNumber })}</span>}
                        {/* Each other series its own line, with its letters: "Kiosk: K1 – K40". */}
                        {s.series.map((r) => (
                          <span key={r.series} className="block" data-testid="series-range">
                            {t("seriesRange", { series: r.series, first: r.first, last: r.last })}
                          </span>
                        ))}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>

        <section aria-labelledby="find-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="find-heading" className="text-2xl font-bold">
            {t("find.heading")}
          </h2>
          <p className="mt-1 text-slate-600">{t("find.hint", { day: dayText })}</p>
          <form method="get" action={path} className="mt-4 flex flex-wrap items-end gap-3">
            <input type="hidden" name="day" value={day} />
            <label className="flex flex-col text-lg font-semibold">
              {t("find.label")}
              <input
                name="number"
                // Letters too: a series' number is typed as the ticket shows it (K12).
                inputMode="text"
                autoCapitalize="characters"
                spellCheck={false}
                pattern="\s*[A-Za-z]{0,3}[0-9]+\s*"
                autoComplete="off"
                defaultValue={rawNumber ?? ""}
                required
                aria-describedby={findError ? "find-error" : undefined}
                aria-invalid={findError ? true : undefined}
                className={`${inputClass} w-40`}
              />
            </label>
            <button type="submit" className={buttonClass}>
              {t("find.submit")}
            </button>
          </form>
          <div className="mt-4 space-y-4" aria-live="polite">
            <FormError id="find-error" message={findError} testId="find-error" />
            {found && found.orders.length === 0 ? (
              <p role="status" data-testid="find-none" className="rounded-lg border-2 border-slate-300 bg-slate-50 px-4 py-3 text-lg">
                {t("find.none", { number: found.display, day: dayText })}
              </p>
            ) : null}
            {found && found.orders.length > 0 ? (
              <div data-testid="find-results">
                <h3 className="text-xl font-bold">{t("find.found", { count: found.orders.length, number: found.display })}</h3>
                {severalSeries.length > 1 ? (
                  <p data-testid="find-several" className="mt-1 text-lg text-slate-700">
                    {t("find.several", {
                      number: found.display,
                      numbers: new Intl.ListFormat(locale, { type: "conjunction" }).format(severalSeries),
                      example: severalSeries.find((d) => d !== found.display) ?? found.display,
                    })}
                  </p>
                ) : null}
                <ul className="mt-3 grid gap-3 sm:grid-cols-2">
                  {found.orders.map((o) => (
                    <li key={o.id} className="rounded-xl border-2 border-slate-300 p-4" data-testid="found-order">
                      <p className="text-xl font-bold">
                        {t("find.shift", { shift: o.shift })} · <span className="tabular-nums">#{displayNumber(o.prefix, o.number)}</span>
                        {o.seriesId !== null ? <span className="font-semibold text-slate-700"> · {seriesNameOf(o)}</span> : null}
                      </p>
                      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-lg">
                        <dt className="text-slate-600">{t("find.status")}</dt>
                        <dd className="font-semibold">{tStatus(o.status)}</dd>
                        <dt className="text-slate-600">{t("find.created")}</dt>
                        <dd className="tabular-nums" data-testid="found-created">
                          {timeBy(o.createdAt, o.placedBy)}
                        </dd>
                        {o.readyAt ? (
                          <>
                            <dt className="text-slate-600">{t("find.ready")}</dt>
                            <dd className="tabular-nums" data-testid="found-ready">
                              {timeBy(o.readyAt, readiedBy(o.moves))}
                            </dd>
                          </>
                        ) : null}
                        {o.collectedAt ? (
                          <>
                            <dt className="text-slate-600">{t("find.collected")}</dt>
                            <dd className="tabular-nums" data-testid="found-collected">
                              {timeBy(o.collectedAt, lastMoveBy(o.moves, "COLLECTED"))}
                            </dd>
                          </>
                        ) : null}
                        {o.cancelledAt ? (
                          <>
                            <dt className="text-slate-600">{t("find.cancelled")}</dt>
                            <dd className="tabular-nums" data-testid="found-cancelled">
                              {timeBy(o.cancelledAt, lastMoveBy(o.moves, "CANCELLED"))}
                            </dd>
                          </>
                        ) : null}
                        {o.note ? (
                          <>
                            <dt className="text-slate-600">{t("find.note")}</dt>
                            <dd className="break-words">{o.note}</dd>
                          </>
                        ) : null}
                      </dl>
                      <p className="mt-2 text-base font-semibold text-slate-600">{t("find.items")}</p>
                      {o.items.length ? (
                        <ItemList items={o.items} rowClassName="gap-2 text-lg" qtyClassName="font-bold" />
                      ) : (
                        <p className="text-lg">{t("find.noItems")}</p>
                      )}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </div>
        </section>

        <section aria-labelledby="export-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm print:hidden">
          <h2 id="export-heading" className="text-2xl font-bold">
            {t("export.heading")}
          </h2>
          <p className="mt-1 text-slate-600">{t("export.intro", { max: MAX_EXPORT_DAYS })}</p>
          <form method="get" action={`/api/v1/orgs/${tenant.slug}/orders.csv`} className="mt-4 flex flex-wrap items-end gap-3" data-testid="csv-form">
            <DateField key={`from-${day}`} label={t("export.from")} name="from" defaultValue={day} max={today} />
            <DateField key={`to-${day}`} label={t("export.to")} name="to" defaultValue={day} max={today} />
            <button type="submit" className={buttonClass}>
              {t("export.submit")}
            </button>
          </form>
        </section>
      </div>
    </ConsoleShell>
  );
}
