import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { businessDayAt } from "@/lib/core/business-day";
import { isAppError } from "@/lib/core/errors";
import { getApp } from "@/lib/server/app-context";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { customerOrder } from "./order-data.server";
import { OrderStatusView } from "./order-status";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("customer");
  return { title: t("pageTitle"), robots: { index: false } };
}

/**
 * The customer's page behind the ticket's QR code: public, one order, live. Its props
 * carry this order only; the orders ahead travel as their board keys (no ids, no items).
 */
export default async function OrderPage({ params }: { params: Promise<{ tenant: string; orderId: string }> }) {
  const { tenant: slug, orderId } = await params;
  const tenant = await tenantOr404(slug);
  let initial;
  try {
    initial = await customerOrder(getApp(), tenant, orderId);
  } catch (e) {
    if (isAppError(e) && e.code === "NOT_FOUND") notFound();
    throw e;
  }
  return <OrderStatusView slug={tenant.slug} orderId={orderId} restaurant={tenant.name} today={businessDayAt(new Date(), tenant)} initial={initial} />;
}
