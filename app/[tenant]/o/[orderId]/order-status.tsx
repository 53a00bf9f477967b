"use client";

import { useEffect, useRef, useState } from "react";
import { useLocale, useTranslations } from "next-intl";
import { withDisplay } from "@/lib/core/display-number";
import type { BoardOrder } from "@/lib/core/orders";
import { customerRead, customerStage, isOfEarlierDay, type CustomerStage } from "@/lib/core/customer-order";
import { applyAhead } from "@/lib/core/queue-position";
import { useBoardSocket } from "@/app/_components/use-board-socket";
import { OfflineBanner } from "@/app/_components/offline-banner";
import { useChime } from "./use-chime";
import { SoundButton } from "./sound-button";
import { NotifyButton } from "./notify-button";
import { WaitLine } from "./wait-line";
import { Icon, type IconName } from "@/app/_components/icon";
import { ItemList } from "@/app/_components/item-list";
import { tenantForm } from "@/app/_components/use-live-data";
import { readOrder } from "./actions";
import { formatShortDay } from "@/app/_lib/format";
import { numberWidth } from "@/app/_lib/number-width";
import type { CustomerOrder } from "./order-data.server";

const STAGE_STYLE: Record<CustomerStage, { icon: IconName; className: string }> = {
  preparing: { icon: "clock", className: "bg-amber-100 text-amber-950 border-amber-500" },
  // emerald-700: white text at 5.5:1 (emerald-600 was 3.8:1).
  ready: { icon: "check", className: "bg-emerald-700 text-white border-emerald-900" },
  collected: { icon: "check", className: "bg-slate-100 text-slate-900 border-slate-400" },
  cancelled: { icon: "cross", className: "bg-red-50 text-red-900 border-red-700" },
  cleared: { icon: "alert", className: "bg-red-50 text-red-900 border-red-700" },
  unknown: { icon: "alert", className: "bg-red-50 text-red-900 border-red-700" },
};

/** Reads of the order in a row while events keep arriving, before the page takes the last answer as it is. */
const MAX_READS = 3;

/** The customer's live view of one order: its status, and the orders ahead counting down. */
export function OrderStatusView({
  slug,
  orderId,
  restaurant,
  today,
  initial,
}: {
  slug: string;
  orderId: string;
  restaurant: string;
  today: string;
  initial: CustomerOrder;
}) {
  const t = useTranslations("customer");
  const tc = useTranslations("common.service");
  const locale = useLocale();
  const [order, setOrder] = useState(initial.self);
  const [ahead, setAhead] = useState<ReadonlySet<string>>(() => new Set(initial.ahead));
  const [lastUpdated, setLastUpdated] = useState<number | null>(null);
  const [wait, setWait] = useState({ summary: initial.wait, readAt: initial.readAt });
  // False once a re-read finds the restaurant no longer has the order (restored from an older backup).
  const [known, setKnown] = useState(true);

  // A read under way, and whether an event arrived meanwhile: the read may have been taken
  // before it (the order made ready just as the phone reconnected), so its answer would put
  // the page back to the older status. Read again then (the board does the same).
  const inflight = useRef(false);
  const dirty = useRef(false);

  // Re-read through a server action, never router.refresh(): a refresh that cannot reach
  // the server makes Next.js load the page anew, which leaves a dead error page.
  const resync = async () => {
    if (inflight.current) {
      dirty.current = true;
      return;
    }
    inflight.current = true;
    try {
      for (let round = 1; ; round++) {
        dirty.current = false;
        const read = await readOrder(null, tenantForm(slug, { orderId })).catch(() => null);
        // An event came meanwhile: this answer may be older than what the page shows now (and
        // showing it would chime "ready" twice). Read again; a few times at most, then take it.
        if (dirty.current && round < MAX_READS) continue;
        if (customerRead(read) === "unknown") {
          // Its last status ("Ready", "2 orders ahead") is no longer true: say so rather than keep it.
          setKnown(false);
          setLastUpdated(Date.now());
        }
        // A failed read keeps what the page shows, events included.
        if (!read?.ok) return;
        setKnown(true);
        const fresh = read.data;
        setOrder(withDisplay(fresh.self));
        setAhead(new Set(fresh.ahead));
        setWait({ summary: fresh.wait, readAt: fresh.readAt });
        setLastUpdated(Date.now());
        return;
      }
    } finally {
      inflight.current = false;
    }
  };
  const onOrder = (o: BoardOrder) => {
    if (inflight.current) dirty.current = true;
    setLastUpdated(Date.now());
    if (o.key === order.key) {
      // Undone back to preparing: the orders ahead were not followed meanwhile.
      if (o.status === "PLACED" && order.status !== "PLACED") void resync();
      setOrder(o);
      return;
    }
    setAhead((set) => applyAhead(set, o, order));
  };
  const connection = useBoardSocket(slug, {
    onConnect: () => void resync(),
    onShiftStarted: () => void resync(),
    onOrderCreated: onOrder,
    onOrderUpdated: onOrder,
  });

  const stage: CustomerStage = known ? customerStage(order) : "unknown";
  const earlierDay = isOfEarlierDay(order, today) && (stage === "preparing" || stage === "ready");
  const chime = useChime();
  useReadyAlert(stage, chime.play);

  useEffect(() => {
    // The number as the board shows it: "K12" in a series with a prefix (decision 0027).
    document.title = stage === "ready" ? t("titleReady", { number: order.display }) : t("title", { number: order.display, restaurant });
  }, [stage, order.display, restaurant, t]);

  const style = STAGE_STYLE[stage];
  const otherLocale = locale === "zh-CN" ? "en" : "zh-CN";
  return (
    <>
      <OfflineBanner state={connection} lastUpdated={lastUpdated} />
      <main className="mx-auto flex min-h-dvh max-w-md flex-col px-5 pt-6 pb-8 text-center">
        <p className="text-xl font-semibold text-slate-700">{restaurant}</p>
        <p className="mt-4 text-lg font-semibold tracking-widest text-slate-600 uppercase">{t("yourNumber")}</p>
        <p className="leading-none font-black tabular-nums" style={{ fontSize: yourNumberSize(order.display) }} data-testid="order-number">
          {order.display}
        </p>

        <div aria-live="polite" aria-atomic="true" className={`mt-6 rounded-2xl border-4 p-5 ${style.className}`} data-testid="order-status" data-stage={stage}>
          <h1 className="flex items-center justify-center gap-3 text-[1.75rem] leading-tight font-extrabold">
            <Icon name={style.icon} className="size-9" />
            {t(`stage.${stage}.title`)}
          </h1>
          {stage === "preparing" ? (
            <p className="mt-3 text-2xl font-bold" data-testid="ahead">
              {t("ahead", { count: ahead.size })}
            </p>
          ) : null}
          {stage === "preparing" ? <WaitLine wait={wait.summary} readAt={wait.readAt} placedAt={order.createdAt} ahead={ahead.size} /> : null}
          <p className="mt-2 text-lg">{t(`stage.${stage}.text`)}</p>
          {earlierDay ? (
            <p className="mt-2 text-base font-semibold" data-testid="earlier-day">
              {t("earlierDay", { date: formatShortDay(order.businessDay, locale) })}
            </p>
          ) : null}
        </div>

        <section aria-labelledby="items-heading" className="mt-6 rounded-2xl border border-slate-200 bg-white p-5 text-left" data-testid="order-items">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="items-heading" className="text-lg font-bold text-slate-700">
              {t("items")}
            </h2>
            {order.service ? (
              <p data-testid="order-service" className="inline-flex items-center gap-1.5 rounded-lg bg-slate-100 px-2 py-0.5 text-lg font-bold text-slate-900">
                {order.service === "takeAway" ? <Icon name="takeAway" className="size-5" /> : null}
                {tc(order.service)}
              </p>
            ) : null}
          </div>
          {initial.items.length ? (
            <ItemList
              items={initial.items}
              className="mt-2 space-y-1 text-xl"
              rowClassName="gap-3"
              qtyClassName="w-14 text-right font-bold"
              noteClassName="text-lg text-slate-700"
            />
          ) : (
            <p className="mt-2 text-lg text-slate-600">{t("noItems")}</p>
          )}
          {initial.note ? <p className="mt-3 text-lg break-words text-slate-700 italic">{t("note", { note: initial.note })}</p> : null}
        </section>

        {stage === "preparing" ? <NotifyButton slug={slug} orderId={orderId} /> : null}
        {stage === "preparing" || stage === "ready" ? <SoundButton chime={chime} /> : null}

        <p className="mt-auto flex items-center justify-center gap-4 pt-8 text-base text-slate-600">
          {connection === "live" ? (
            <span data-testid="live" className="inline-flex items-center gap-2">
              <span aria-hidden="true" className="size-2.5 rounded-full bg-emerald-500" />
              {t("live")}
            </span>
          ) : null}
          <a
            href={`?lang=${otherLocale}`}
            lang={otherLocale}
            className="rounded-md px-2 py-1 font-semibold text-blue-800 underline focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300"
          >
            {t("otherLanguage")}
          </a>
        </p>
      </main>
    </>
  );
}

/**
 * 8rem, smaller when the number would not fit the page's column (28rem at most, 1.25rem
 * padding each side): "K123" or "1234" on a 390 px phone.
 */
function yourNumberSize(display: string): string {
  return `min(8rem, calc((min(100vw, 28rem) - 2.5rem) / ${numberWidth(display).toFixed(3)}))`;
}

/** When the order becomes ready while the page is open: chime and buzz (where the phone allows). */
function useReadyAlert(stage: CustomerStage, play: () => void) {
  const last = useRef(stage);
  useEffect(() => {
    if (stage === "ready" && last.current !== "ready") {
      play();
      navigator.vibrate?.([300, 100, 300, 100, 300]);
    }
    last.current = stage;
  }, [stage, play]);
}
