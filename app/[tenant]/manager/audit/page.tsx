import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { AUDIT_ACTIONS, type AuditEntry } from "@/lib/core/audit";
import { auditActor, auditSentences } from "@/lib/core/audit-sentences";
import { requireStaff } from "@/lib/edges/next/staff.server";
import { getApp } from "@/lib/server/app-context";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { formatDateTime } from "@/app/_lib/format";
import { ConsoleShell, PageHeading } from "../_components/console-shell";
import { ColumnHeads } from "../_components/column-heads";
import { sentenceText } from "./sentence-text";

export const dynamic = "force-dynamic";

/** How many entries the page shows (the REST API reads up to 500). */
const PAGE_ENTRIES = 200;

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("managerAudit"))("title") };
}

/** Message keys may not contain dots (next-intl nests on them): "key.revoke" → "key_revoke". */
type ActionKey = {
  [A in AuditEntry["action"]]: A extends `${infer H}.${infer R}` ? `${H}_${R}` : A;
}[AuditEntry["action"]];

export default async function AuditPage({ params }: { params: Promise<{ tenant: string }> }) {
  const { tenant: slug } = await params;
  await tenantOr404(slug);
  const caller = await requireStaff(slug, ["MANAGER"], `/${slug}/manager/audit`);
  const tenant = caller.tenant;
  const [t, locale, entries] = await Promise.all([getTranslations("managerAudit"), getLocale(), getApp().audit.list(tenant.id, PAGE_ENTRIES)]);
  const say = sentenceText(t);

  return (
    <ConsoleShell caller={caller} section="audit">
      <PageHeading title={t("title")} intro={t("intro", { count: PAGE_ENTRIES })} />
      {entries.length === 0 ? (
        <p className="text-lg text-slate-700">{t("empty")}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-left text-base" data-testid="audit-log">
            <ColumnHeads labels={(["at", "actor", "action", "details"] as const).map((c) => t(`table.${c}`))} />
            <tbody>
              {entries.map((e, i) => (
                <tr key={i} className="border-b border-slate-200 align-top">
                  <td className="whitespace-nowrap px-2 py-2 tabular-nums">
                    <time dateTime={e.at.toISOString()}>{formatDateTime(e.at, tenant.timeZone, { seconds: true }, locale)}</time>
                  </td>
                  <td className="px-2 py-2">{say(auditActor(e.actor))}</td>
                  <td className="px-2 py-2 font-semibold">
                    {(AUDIT_ACTIONS as readonly string[]).includes(e.action) ? t(`actions.${e.action.replace(".", "_") as ActionKey}`) : t("actions.other")}
                  </td>
                  <td className="px-2 py-2">
                    <ul>
                      {auditSentences(e).map((s, j) => (
                        <li key={j}>{say(s)}</li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </ConsoleShell>
  );
}
