import { getLocale, getTranslations } from "next-intl/server";
import { formatMoney } from "@/lib/core/money";
import { CHANNELS } from "@/lib/core/orders";
import type { DayTakings, TakingsSum } from "@/lib/core/reports/takings";
import { ColumnHeads } from "../_components/column-heads";

type Row = TakingsSum & { key: string; head: string };

/** The day's takings (issue #41): the total first, then per shift, channel and service, each in the restaurant's currency. */
export async function TakingsFigures({ takings: k, dayText }: { takings: DayTakings; dayText: string }) {
  const [t, services, locale] = await Promise.all([getTranslations("managerFigures.takings"), getTranslations("common.service"), getLocale()]);
  const money = (cents: number) => formatMoney(cents, locale, k.currency);
  const channel = (c: string) => ((CHANNELS as readonly string[]).includes(c) ? t(`channel.${c as (typeof CHANNELS)[number]}`) : c);
  const tables: { id: "shift" | "channel" | "service"; title: string; rows: Row[] }[] = [
    { id: "shift", title: t("byShift"), rows: k.shifts.map((s) => ({ ...s, key: String(s.shift), head: t("shiftN", { shift: s.shift }) })) },
    { id: "channel", title: t("byChannel"), rows: k.channels.map((c) => ({ ...c, key: c.channel, head: channel(c.channel) })) },
    { id: "service", title: t("byService"), rows: k.services.map((s) => ({ ...s, key: String(s.service), head: services(s.service ?? "none") })) },
  ];
  const sold = k.total.orders > 0;
  return (
    <section aria-labelledby="takings" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm" data-testid="takings">
      <h2 id="takings" className="text-2xl font-bold">
        {t("heading", { day: dayText })}
      </h2>
      <div className="mt-3 flex flex-wrap items-baseline gap-x-4 gap-y-1">
        <p className="text-5xl font-bold tabular-nums" data-testid="takings-total">
          {money(k.total.totalCents)}
        </p>
        <p className="text-xl text-slate-700" data-testid="takings-orders">
          {t("fromOrders", { count: k.total.orders })}
        </p>
      </div>
      {k.total.unpricedOrders > 0 ? (
        <p className="mt-2 rounded-lg bg-amber-50 px-3 py-2 text-lg text-amber-900" data-testid="takings-partial">
          {t("partial", { count: k.total.unpricedOrders })}
        </p>
      ) : null}
      <p className="mt-2 text-lg" data-testid="takings-cancelled">
        {k.cancelled.orders > 0 ? t("cancelled", { count: k.cancelled.orders, amount: money(k.cancelled.totalCents) }) : t("noneCancelled")}
      </p>
      {sold ? (
        <div className="mt-5 grid items-start gap-6 lg:grid-cols-3">
          {tables.map((table) => (
            <SumTable
              key={table.id}
              testId={`takings-by-${table.id}`}
              title={table.title}
              labels={[t(`col.${table.id}`), t("col.orders"), t("col.takings")]}
              rows={table.rows}
              money={money}
              locale={locale}
            />
          ))}
        </div>
      ) : null}
      <p className="mt-4 text-slate-600">{t("note")}</p>
      {k.currency === null ? <p className="mt-1 text-slate-600">{t("noCurrency")}</p> : null}
    </section>
  );
}

async function SumTable(props: { testId: string; title: string; labels: string[]; rows: Row[]; money: (c: number) => string; locale: string }) {
  const { testId, title, labels, rows, money, locale } = props;
  const t = await getTranslations("managerFigures.takings");
  const count = new Intl.NumberFormat(locale);
  return (
    <table className="w-full text-left text-lg" data-testid={testId}>
      <caption className="pb-1 text-left text-lg font-bold">{title}</caption>
      <ColumnHeads labels={labels} />
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} className="border-b border-slate-200">
            <th scope="row" className="whitespace-nowrap px-2 py-2 font-bold">
              {r.head}
            </th>
            <td className="px-2 py-2 tabular-nums">{count.format(r.orders)}</td>
            <td className="whitespace-nowrap px-2 py-2 tabular-nums">
              {money(r.totalCents)}
              {r.unpricedOrders > 0 ? <span className="block text-base text-amber-800">{t("partialMark")}</span> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
