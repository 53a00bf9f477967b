import type { Metadata } from "next";
import Link from "next/link";
import { ORDER_STATUSES, type OrderStatus } from "@/lib/core/orders";
import { requireStaff } from "@/lib/adapters/next/staff.server";
import { getApp } from "@/lib/server/app-context";
import { StaffHeader } from "@/app/_components/staff-header";
import { LiveRefresh } from "@/app/_components/live-refresh";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { formatBusinessDay } from "@/app/_lib/format";
import { StartShiftForm } from "./start-shift-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Manager" };

const STATUS_LABEL: Record<OrderStatus, { label: string; className: string }> = {
  PLACED: { label: "Preparing", className: "border-amber-500 bg-amber-50 text-amber-950" },
  READY: { label: "Ready", className: "border-emerald-600 bg-emerald-50 text-emerald-950" },
  COLLECTED: { label: "Collected", className: "border-blue-600 bg-blue-50 text-blue-950" },
  CANCELLED: { label: "Cancelled", className: "border-slate-400 bg-slate-50 text-slate-900" },
};

const SCREENS = [
  { path: "kiosk", title: "Kiosk", text: "Take orders and hand out numbers." },
  { path: "kitchen", title: "Kitchen", text: "Mark orders ready, collected or cancelled." },
  { path: "board", title: "Board", text: "The public screen for the dining room TV." },
];

export default async function ManagerPage({ params }: { params: Promise<{ tenant: string }> }) {
  const { tenant: slug } = await params;
  await tenantOr404(slug);
  const caller = await requireStaff(slug, ["MANAGER"], `/${slug}/manager`);
  const tenant = caller.tenant;
  const app = getApp();
  const [{ businessDay, shift, orders }, health] = await Promise.all([app.orders.currentShift(tenant), app.health()]);
  const counts = Object.fromEntries(ORDER_STATUSES.map((s) => [s, orders.filter((o) => o.status === s).length])) as Record<OrderStatus, number>;
  const lastNumber = orders.reduce<number | null>((max, o) => (max === null || o.number > max ? o.number : max), null);

  return (
    <>
      <StaffHeader tenant={tenant} role={caller.role} current="manager" />
      <main className="mx-auto max-w-5xl space-y-8 px-4 py-6">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
          <h1 className="text-3xl font-extrabold tracking-tight">Manager</h1>
          <p className="mt-1 text-lg text-slate-700">
            Business day <strong>{formatBusinessDay(businessDay)}</strong> · Current shift <strong data-testid="current-shift">{shift}</strong>
          </p>
          </div>
          <LiveRefresh slug={tenant.slug} />
        </div>

        {health.counter === "database" ? (
          <p role="status" data-testid="counter-status" className="rounded-xl border-2 border-amber-600 bg-amber-50 px-4 py-3 text-lg text-amber-950">
            <strong>Numbers come from the database right now</strong> — the fast counter (Redis) is not reachable from this
            server. Orders are still taken and no number repeats; numbers may jump ahead a little. Tell your operator.
          </p>
        ) : null}

        <section aria-labelledby="shift-orders" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="shift-orders" className="text-2xl font-bold">
            Orders in shift {shift}
          </h2>
          <p className="mt-1 text-slate-600">
            {orders.length === 0 ? "No orders yet." : `${orders.length} order${orders.length === 1 ? "" : "s"} so far; last number issued: ${lastNumber}.`}
          </p>
          <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
            {ORDER_STATUSES.map((s) => (
              <div key={s} className={`rounded-xl border-2 p-4 ${STATUS_LABEL[s].className}`}>
                <dt className="text-lg font-semibold">{STATUS_LABEL[s].label}</dt>
                <dd className="text-5xl font-black tabular-nums">{counts[s]}</dd>
              </div>
            ))}
          </dl>
        </section>

        <section aria-labelledby="new-shift" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="new-shift" className="text-2xl font-bold">
            Start a new shift
          </h2>
          <p className="mt-1 mb-4 text-slate-700">Numbers start again from the first number, e.g. between lunch and dinner service. Today&apos;s orders are kept.</p>
          <StartShiftForm slug={tenant.slug} currentShift={shift} />
        </section>

        <section aria-labelledby="screens">
          <h2 id="screens" className="mb-3 text-2xl font-bold">
            Screens
          </h2>
          <ul className="grid gap-3 sm:grid-cols-3">
            {SCREENS.map((s) => (
              <li key={s.path}>
                <Link
                  href={`/${tenant.slug}/${s.path}`}
                  className="block h-full rounded-xl border-2 border-slate-300 bg-white p-4 hover:border-blue-700 hover:bg-blue-50 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300"
                >
                  <span className="block text-xl font-bold text-blue-800">{s.title}</span>
                  <span className="text-slate-700">{s.text}</span>
                  <span className="mt-1 block text-sm text-slate-500">/{tenant.slug}/{s.path}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      </main>
    </>
  );
}
