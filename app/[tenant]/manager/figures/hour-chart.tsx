/**
 * Orders per hour as bars drawn with CSS, each with its count written on it; the chart is
 * hidden from screen readers, who get the same figures as a table.
 */
export function HourChart({
  hours,
  caption,
  hourLabel,
  ordersLabel,
}: {
  hours: readonly { hour: string; start: string; orders: number }[];
  caption: string;
  hourLabel: string;
  ordersLabel: string;
}) {
  const max = Math.max(1, ...hours.map((h) => h.orders));
  return (
    <>
      <div aria-hidden="true" className="overflow-x-auto" data-testid="hour-chart">
        <div className="flex h-64 min-w-[40rem] items-end gap-1 border-b-2 border-slate-400 pt-6">
          {hours.map((h) => (
            <div key={h.start} className="flex h-full min-w-0 flex-1 flex-col items-center justify-end" data-testid="hour-bar" data-orders={h.orders}>
              <span className="text-sm font-bold tabular-nums text-slate-900">{h.orders > 0 ? h.orders : ""}</span>
              <div className="w-full rounded-t bg-blue-700" style={{ height: `${(h.orders / max) * 100}%`, minHeight: h.orders > 0 ? "2px" : 0 }} />
            </div>
          ))}
        </div>
        <div className="flex min-w-[40rem] gap-1 pt-1">
          {hours.map((h) => (
            <span key={h.start} className="min-w-0 flex-1 text-center text-xs tabular-nums text-slate-600">
              {h.hour.slice(0, 2)}
            </span>
          ))}
        </div>
      </div>
      <table className="sr-only" data-testid="hour-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{hourLabel}</th>
            <th scope="col">{ordersLabel}</th>
          </tr>
        </thead>
        <tbody>
          {hours.map((h) => (
            <tr key={h.start}>
              <th scope="row">{h.hour}</th>
              <td>{h.orders}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
