import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { AUDIT_ACTIONS, type AuditEntry } from "@/lib/core/audit";
import { SETTINGS_FIELDS, type SettingsField } from "@/lib/core/settings";
import { requireStaff } from "@/lib/edges/next/staff.server";
import { getApp } from "@/lib/server/app-context";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { formatDateTime } from "@/app/_lib/format";
import { ConsoleShell, PageHeading } from "../_components/console-shell";
import { ColumnHeads } from "../_components/column-heads";

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

type T = Awaited<ReturnType<typeof getTranslations<"managerAudit">>>;
type TAccess = Awaited<ReturnType<typeof getTranslations<"managerAccess">>>;

/** A detail stored as JSON, as text: a nested object as JSON rather than "[object Object]". */
function text(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return v.toString();
  return v === null || v === undefined ? "" : JSON.stringify(v);
}

const roleName = (ta: TAccess, role: unknown) => (role === "MANAGER" || role === "CASHIER" || role === "KITCHEN" ? ta(`roles.${role}`) : text(role));

function value(t: T, field: string, v: unknown): string {
  if (v === null || v === undefined) return field === "language" ? t("details.browser") : t("details.empty");
  if (Array.isArray(v)) return v.length ? v.map(text).join(", ") : t("details.empty");
  return text(v);
}

/** One entry's details as a sentence, never raw JSON where the action is known. */
function describe(t: T, ta: TAccess, e: AuditEntry): string[] {
  const d = e.details;
  switch (e.action) {
    case "settings.update": {
      const changes = (d.changes ?? {}) as Record<string, { from: unknown; to: unknown }>;
      return Object.entries(changes).map(
        ([f, c]) => `${SETTINGS_FIELDS.includes(f as SettingsField) ? t(`fields.${f as SettingsField}`) : f}: ${value(t, f, c.from)} → ${value(t, f, c.to)}`,
      );
    }
    case "staff.rotate":
      return [t("details.role", { role: roleName(ta, d.role) })];
    case "key.create":
    case "key.revoke":
      return [t("details.key", { name: text(d.name), role: roleName(ta, d.role), prefix: text(d.prefix) })];
    case "webhook.create":
    case "webhook.delete":
      return [t("details.webhook", { url: text(d.url), events: Array.isArray(d.events) ? d.events.join(", ") : "" })];
    case "shift.start": {
      const lines = [t("details.shift", { shift: text(d.shift ?? "?"), first: text(d.firstNumber ?? 1) })];
      if (d.reason) lines.push(t("details.reason", { reason: text(d.reason) }));
      if (typeof d.cleared === "number" && d.cleared > 0) lines.push(t("details.cleared", { count: d.cleared }));
      return lines;
    }
    default:
      return Object.entries(d).map(([k, v]) => `${k}: ${text(v)}`);
  }
}

export default async function AuditPage({ params }: { params: Promise<{ tenant: string }> }) {
  const { tenant: slug } = await params;
  await tenantOr404(slug);
  const caller = await requireStaff(slug, ["MANAGER"], `/${slug}/manager/audit`);
  const tenant = caller.tenant;
  const [t, ta, entries] = await Promise.all([getTranslations("managerAudit"), getTranslations("managerAccess"), getApp().audit.list(tenant.id, PAGE_ENTRIES)]);

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
                    <time dateTime={e.at.toISOString()}>{formatDateTime(e.at, tenant.timeZone, { seconds: true })}</time>
                  </td>
                  <td className="px-2 py-2">{e.actor}</td>
                  <td className="px-2 py-2 font-semibold">
                    {(AUDIT_ACTIONS as readonly string[]).includes(e.action) ? t(`actions.${e.action.replace(".", "_") as ActionKey}`) : t("actions.other")}
                  </td>
                  <td className="px-2 py-2">
                    <ul>
                      {describe(t, ta, e).map((line, j) => (
                        <li key={j}>{line}</li>
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
