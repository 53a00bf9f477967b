import type { Metadata } from "next";
import { requireStaff } from "@/lib/adapters/next/staff.server";
import { getApp } from "@/lib/server/app-context";
import { StaffHeader } from "@/app/_components/staff-header";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { formatTime } from "@/app/_lib/format";
import { KitchenScreen } from "./kitchen-screen";
import type { KitchenOrder } from "./order-card";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Kitchen" };

export default async function KitchenPage({ params }: { params: Promise<{ tenant: string }> }) {
  const { tenant: slug } = await params;
  await tenantOr404(slug);
  const caller = await requireStaff(slug, ["KITCHEN"], `/${slug}/kitchen`);
  const app = getApp();
  const tenant = caller.tenant;
  const [open, current] = await Promise.all([app.orders.openOrders(tenant), app.orders.currentShift(tenant, [])]);
  const orders: KitchenOrder[] = open.map((o) => ({
    id: o.id,
    number: o.number,
    shift: o.shift,
    status: o.status,
    items: o.items,
    note: o.note,
    createdAt: o.createdAt.toISOString(),
    readyAt: o.readyAt?.toISOString() ?? null,
    time: formatTime(o.createdAt, tenant.timeZone),
  }));

  return (
    <>
      <StaffHeader tenant={tenant} role={caller.role} current="kitchen" />
      <main className="mx-auto max-w-7xl px-4 py-6">
        <KitchenScreen slug={tenant.slug} orders={orders} currentShift={current.shift} serverNow={Date.now()} />
      </main>
    </>
  );
}
