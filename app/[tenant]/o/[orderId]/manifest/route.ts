/**
 * The customer's page as a Home Screen app (GET /{tenant}/o/{orderId}/manifest): an iPhone
 * gets Web Push only for a page added to the Home Screen, and that app must open this order's
 * page, not the start page of the generic /manifest.webmanifest.
 */
import { getTranslations } from "next-intl/server";
import { getApp } from "@/lib/server/app-context";
import { MANIFEST_ICONS, manifestResponse } from "@/app/_lib/manifest-response";

/** An order id as the ticket's link carries it; anything else is not looked up. */
const ORDER_ID = /^[A-Za-z0-9_-]{1,64}$/;

export async function GET(_req: Request, { params }: { params: Promise<{ tenant: string; orderId: string }> }) {
  const { tenant: slug, orderId } = await params;
  const tenant = ORDER_ID.test(orderId) && slug.length <= 64 ? await getApp().tenants.find(slug) : null;
  if (!tenant) return Response.json({ error: { code: "NOT_FOUND", message: "No such order page" } }, { status: 404 });

  const t = await getTranslations("customer.notify");
  const page = `/${tenant.slug}/o/${orderId}`;
  const manifest = {
    name: `${tenant.name} — ${t("manifestName")}`,
    short_name: tenant.name.slice(0, 24),
    id: page,
    start_url: page,
    scope: page,
    display: "standalone",
    orientation: "portrait",
    theme_color: "#0f172a",
    background_color: "#f8fafc",
    icons: MANIFEST_ICONS,
  };
  return manifestResponse(manifest);
}
