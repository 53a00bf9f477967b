import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { deliveryState } from "@/lib/core/webhooks/retry";
import { requireStaff } from "@/lib/edges/next/staff.server";
import { getApp } from "@/lib/server/app-context";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { formatDateTime } from "@/app/_lib/format";
import { auditActor } from "@/lib/core/audit-sentences";
import { sentenceText } from "../audit/sentence-text";
import { ConsoleShell, PageHeading } from "../_components/console-shell";
import { WebhooksPanel } from "./webhooks-panel";
import type { EndpointRow } from "./rows";

export const dynamic = "force-dynamic";

/** Messages shown per endpoint (the REST API reads up to 200). */
const RECENT = 10;

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("managerWebhooks"))("title") };
}

export default async function WebhooksPage({ params }: { params: Promise<{ tenant: string }> }) {
  const { tenant: slug } = await params;
  await tenantOr404(slug);
  const caller = await requireStaff(slug, ["MANAGER"], `/${slug}/manager/webhooks`);
  const tenant = caller.tenant;
  const app = getApp();
  const [t, ta, locale, endpoints] = await Promise.all([
    getTranslations("managerWebhooks"),
    getTranslations("managerAudit"),
    getLocale(),
    app.webhooks.list(tenant),
  ]);
  const say = sentenceText(ta);
  const when = (at: Date) => formatDateTime(at, tenant.timeZone, { date: "day", seconds: true }, locale);
  // Never a secret: the rows hold only what the list and the deliveries show.
  const rows: EndpointRow[] = await Promise.all(
    endpoints.map(async (e) => ({
      id: e.id,
      url: e.url,
      events: e.events,
      created: when(e.createdAt),
      createdBy: e.createdBy ? say(auditActor(e.createdBy)) : null,
      deliveries: (await app.webhooks.deliveries(tenant, e.id, RECENT)).map((d) => ({
        id: d.id,
        type: d.type,
        at: when(d.createdAt),
        state: deliveryState(d),
        nextAttempt: d.nextAttemptAt ? when(d.nextAttemptAt) : null,
        attempts: d.attempts,
        answer: d.lastError ?? (d.lastStatus === null ? null : `HTTP ${d.lastStatus}`),
      })),
    })),
  );
  return (
    <ConsoleShell caller={caller} section="webhooks">
      <PageHeading title={t("title")} intro={t("intro")} />
      <WebhooksPanel slug={tenant.slug} endpoints={rows} />
    </ConsoleShell>
  );
}
