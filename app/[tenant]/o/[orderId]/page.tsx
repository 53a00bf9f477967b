import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { toBoardOrder } from "@/lib/core/orders";
import { getApp } from "@/lib/server/app-context";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { isAppError } from "@/lib/core/errors";
import { OrderStatusView } from "./order-status";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your order", robots: { index: false } };

/** The customer's page behind the ticket's QR code: public, one order, live. */
export default async function OrderPage({ params }: { params: Promise<{ tenant: string; orderId: string }> }) {
  const { tenant: slug, orderId } = await params;
  const tenant = await tenantOr404(slug);
  let order;
  try {
    order = await getApp().orders.get(tenant, orderId);
  } catch (e) {
    if (isAppError(e) && e.code === "NOT_FOUND") notFound();
    throw e;
  }
  return <OrderStatusView slug={tenant.slug} restaurant={tenant.name} initial={toBoardOrder(order)} />;
}
