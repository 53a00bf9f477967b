"use client";

import { useLocale, useTranslations } from "next-intl";
import { Icon } from "@/app/_components/icon";
import { usePushSubscription } from "./use-push-subscription";

/**
 * "Notify me when it's ready": a push notification even with the phone locked, where this
 * browser and the server can (nothing shown otherwise: the in-page chime stays either way).
 * On an iPhone in Safari it says how to get there (the Home Screen) instead.
 */
export function NotifyButton({ slug, orderId }: { slug: string; orderId: string }) {
  const t = useTranslations("customer.notify");
  const locale = useLocale();
  const { state, subscribe } = usePushSubscription(slug, orderId, locale);
  if (state.kind === "none") return null;

  if (state.kind === "ios-home-screen")
    return (
      <p className="mt-6 rounded-xl border border-slate-300 bg-white p-4 text-left text-base text-slate-700" data-testid="notify-ios">
        {t("iosHowTo")}
      </p>
    );

  const subscribed = state.kind === "subscribed";
  const showButton = state.kind === "ready" || state.kind === "working" || state.kind === "failed";
  const outcome =
    state.kind === "subscribed" ? t("subscribed") : state.kind === "blocked" ? t("blocked") : state.kind === "failed" ? (state.message ?? t("failed")) : "";
  return (
    <div className="mt-6 flex flex-col items-center gap-2" data-testid="notify" data-state={state.kind}>
      {showButton ? (
        <button
          type="button"
          onClick={subscribe}
          disabled={state.kind === "working"}
          data-testid="notify-button"
          className="inline-flex items-center gap-2 rounded-full border-2 border-blue-700 bg-blue-700 px-5 py-3 text-lg font-bold text-white focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300 disabled:opacity-70"
        >
          <Icon name="bell" className="size-6" />
          {state.kind === "working" ? t("working") : t("button")}
        </button>
      ) : null}
      <p
        aria-live="polite"
        data-testid="notify-result"
        className={
          subscribed
            ? "inline-flex items-center gap-2 py-3 text-lg font-bold text-emerald-800"
            : state.kind === "failed" || state.kind === "blocked"
              ? "rounded-lg border-2 border-amber-600 bg-amber-50 px-4 py-2 text-base text-amber-950"
              : "sr-only"
        }
      >
        {subscribed ? <Icon name="check" className="size-6" /> : null}
        {outcome}
      </p>
      {showButton ? <p className="text-sm text-slate-600">{t("hint")}</p> : null}
    </div>
  );
}
