import { getTranslations } from "next-intl/server";
import { getApp } from "@/lib/server/app-context";
import { pushLine } from "./push-status";

/**
 * The overview's line on customer notifications: Web Push needs this server to reach the
 * phones' push services on the internet; a LAN-only shop learns it here, and that the
 * customer's page still chimes while it is open.
 */
export async function PushNote({ tenantId }: { tenantId: string }) {
  const t = await getTranslations("manager.push");
  const { push } = getApp();
  const status = push.status();
  // The restaurant's own pushes of the last hour; a failed read only loses the "failing" hint.
  const recent = status.enabled ? await push.recent(tenantId).catch(() => null) : null;
  const line = pushLine(status, recent);
  return (
    <section aria-labelledby="push" className="pt-8">
      <h2 id="push" className="mb-2 text-2xl font-bold">
        {t("heading")}
      </h2>
      <p data-testid="push-note" data-state={line} className="text-slate-700">
        {line === "off" ? t("off") : t("on")}
      </p>
      {line === "failing" ? (
        <p data-testid="push-failing" role="alert" className="mt-2 rounded-lg border-2 border-red-700 bg-red-50 p-3 text-red-900">
          {t("failing")}
        </p>
      ) : null}
    </section>
  );
}
