import { getLocale, getTranslations } from "next-intl/server";
import { formatDateTime } from "@/app/_lib/format";
import { getApp } from "@/lib/server/app-context";

/** The overview's line on scheduled backups (decision 0049): when the last one was made, or that it failed. */
export async function BackupNote({ timeZone }: { timeZone: string }) {
  const app = getApp();
  const [t, locale] = await Promise.all([getTranslations("manager.backups"), getLocale()]);
  const state = app.backups?.state() ?? { state: "off" as const };
  const when = (at: Date | null) => (at ? formatDateTime(at, timeZone, { date: "day" }, locale) : t("never"));
  const text =
    state.state === "off"
      ? t("off")
      : state.state === "none"
        ? t("none", { minutes: app.env.BACKUP_EVERY_MINUTES })
        : state.state === "running"
          ? t("running")
          : state.state === "ok"
            ? t("ok", { at: when(state.at), kept: state.kept, dir: state.dir })
            : t("failed", { at: when(state.at), lastOk: when(state.lastOk) });
  const failed = state.state === "failed";
  return (
    <section aria-labelledby="backups" className="pt-8">
      <h2 id="backups" className="mb-2 text-2xl font-bold">
        {t("heading")}
      </h2>
      <p
        data-testid="backup-note"
        role={failed ? "alert" : undefined}
        className={failed ? "rounded-lg border-2 border-red-700 bg-red-50 p-3 text-red-900" : "text-slate-700"}
      >
        {text}
      </p>
    </section>
  );
}
