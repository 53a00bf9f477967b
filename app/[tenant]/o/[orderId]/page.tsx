import { cache } from "react";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { businessDayAt } from "@/lib/core/business-day";
import { customerStage } from "@/lib/core/customer-order";
import { isAppError } from "@/lib/core/errors";
import { getApp } from "@/lib/server/app-context";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { customerOrder } from "./order-data.server";
import { OrderStatusView } from "./order-status";

export const dynamic = "force-dynamic";

/** One read of the order per request, shared by the page and its title. */
const orderOf = cache(async (slug: string, orderId: string) => {
  const tenant = await tenantOr404(slug);
  return { tenant, initial: await customerOrder(getApp(), tenant, orderId) };
});

/**
 * The tab says the number from the first paint, as the page's effect says it from then on
 * ("Number K12 · Golden Wok", "Ready! Number K12"): a title set only by the effect was
 * replaced by this metadata's once it arrived.
 */
export async function generateMetadata({ params }: { params: Promise<{ tenant: string; orderId: string }> }): Promise<Metadata> {
  const { tenant: slug, orderId } = await params;
  const t = await getTranslations("customer");
  // An unknown order: the page answers 404 from the same read.
  const read = await orderOf(slug, orderId).catch(() => null);
  if (!read) return { title: t("pageTitle"), robots: { index: false } };
  const { self } = read.initial;
  const title =
    customerStage(self) === "ready" ? t("titleReady", { number: self.display }) : t("title", { number: self.display, restaurant: read.tenant.name });
  // Added to an iPhone's Home Screen, it opens this order's page (and may then get Web Push).
  const manifest = `/${encodeURIComponent(slug)}/o/${encodeURIComponent(orderId)}/manifest`;
  return { title: { absolute: title }, robots: { index: false }, manifest, appleWebApp: { capable: true, title: read.tenant.name } };
}

/**
 * The customer's page behind the ticket's QR code: public, one order, live. Its props
 * carry this order only; the orders ahead travel as their board keys (no ids, no items).
 */
export default async function OrderPage({ params }: { params: Promise<{ tenant: string; orderId: string }> }) {
  const { tenant: slug, orderId } = await params;
  let tenant, initial;
  try {
    ({ tenant, initial } = await orderOf(slug, orderId));
  } catch (e) {
    if (isAppError(e) && e.code === "NOT_FOUND") notFound();
    throw e;
  }
  return <OrderStatusView slug={tenant.slug} orderId={orderId} restaurant={tenant.name} today={businessDayAt(new Date(), tenant)} initial={initial} />;
}
