import { getTranslations } from "next-intl/server";
import type { App } from "@/lib/server/app.server";
import { getApp } from "@/lib/server/app-context";

/** What the server says of Web Push (its `app.push.status()`). */
export interface PushStatus {
  enabled: boolean;
  contact: string | null;
  reason?: string;
  /** Pushes sent and failed lately, where the server counts them. */
  recentSent?: number;
  recentFailed?: number;
}

/** The server's push status; off where this build has no push service wired in. */
export function pushStatusOf(app: App): PushStatus {
  const push = (app as App & { push?: { status(): PushStatus } }).push;
  return push?.status() ?? { enabled: false, contact: null };
}

/**
 * The overview's line on customer notifications: Web Push needs this server to reach the
 * phones' push services on the internet; a LAN-only shop learns it here, and that the
 * customer's page still chimes while it is open.
 */
export async function PushNote() {
  const t = await getTranslations("manager.push");
  const status = pushStatusOf(getApp());
  // Failures and not one success lately: most likely no way out to the internet.
  const failing = status.enabled && (status.recentFailed ?? 0) > 0 && (status.recentSent ?? 0) === 0;
  return (
    <section aria-labelledby="push" className="pt-8">
      <h2 id="push" className="mb-2 text-2xl font-bold">
        {t("heading")}
      </h2>
      <p data-testid="push-note" data-enabled={status.enabled} className="text-slate-700">
        {status.enabled ? t("on") : t("off")}
      </p>
      {failing ? (
        <p data-testid="push-failing" role="alert" className="mt-2 rounded-lg border-2 border-red-700 bg-red-50 p-3 text-red-900">
          {t("failing")}
        </p>
      ) : null}
    </section>
  );
}
