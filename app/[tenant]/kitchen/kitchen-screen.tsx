"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { useFormatter, useTranslations } from "next-intl";
import { kitchenSections } from "@/lib/core/kitchen-sections";
import { tenantForm, useLiveData } from "@/app/_components/use-live-data";
import { OfflineBanner } from "@/app/_components/offline-banner";
import { FormError } from "@/app/_components/form-error";
import { readKitchen, type StatusChanged, type TypedOutcome } from "./actions";
import { CollectedList } from "./collected-list";
import { OrderCard } from "./order-card";
import { OrderSection } from "./order-section";
import { TypedNumberForm } from "./typed-number-form";
import type { KitchenData } from "./types";

/** Ages are in whole minutes: a tick well under a minute keeps them right. */
const TICK_MS = 15_000;

type Feedback = { tone: "ok" | "error"; text: string };

/**
 * The kitchen's screen: the typed-number field, three piles of open orders and the
 * recently collected ones. Any board event re-reads the whole screen (simple and always
 * right); the clock ticking moves ages and the "not collected" pile.
 */
export function KitchenScreen({ slug, initial, serverNow }: { slug: string; initial: KitchenData; serverNow: number }) {
  const t = useTranslations("kitchen");
  const format = useFormatter();
  const live = useLiveData(slug, initial, async () => {
    const r = await readKitchen(null, tenantForm(slug));
    return r?.ok ? r.data : null;
  });
  const { open, collected, currentShift, floor } = live.data;
  const [now, setNow] = useState(serverNow);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const typedInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);

  const moved = useCallback(
    (o: StatusChanged) => {
      const status = t(`status.${o.status}`);
      return o.shift < currentShift ? t("typed.movedOfShift", { number: o.number, shift: o.shift, status }) : t("typed.moved", { number: o.number, status });
    },
    [t, currentShift],
  );

  const onMoved = useCallback(
    (o: StatusChanged, refocus: boolean) => {
      setFeedback({ tone: "ok", text: moved(o) });
      // The card is about to leave its pile: a keyboard user continues from the number field.
      if (refocus) typedInput.current?.focus();
    },
    [moved],
  );
  const onCalled = useCallback((o: StatusChanged) => setFeedback({ tone: "ok", text: t("called", { number: o.number }) }), [t]);

  const onOutcome = useCallback(
    (r: TypedOutcome) => {
      if (r.kind === "moved") setFeedback({ tone: "ok", text: moved(r.order) });
      else if (r.kind === "unknown") setFeedback({ tone: "error", text: t("typed.unknown", { number: r.number }) });
      else if (r.kind === "several") setFeedback({ tone: "error", text: t("typed.several", { number: r.number, shifts: format.list(r.shifts.map(String)) }) });
      else setFeedback({ tone: "error", text: t("typed.invalid") });
    },
    [t, format, moved],
  );

  const { toPrepare, ready, notCollected } = kitchenSections(open, now, floor.readyClearMinutes);
  const card = { slug, currentShift, now, floor, onMoved, onCalled };

  return (
    <div data-connection={live.state} className="flex flex-col">
      <OfflineBanner state={live.state} lastUpdated={live.lastUpdated} />
      <div className="flex flex-wrap items-start gap-x-6 gap-y-2 border-b-2 border-slate-200 bg-white px-4 py-2">
        <div>
          <h1 className="text-3xl leading-tight font-extrabold tracking-tight">{t("title")}</h1>
          <p className="text-base font-semibold text-slate-700">{t("currentShift", { shift: currentShift })}</p>
        </div>
        <TypedNumberForm slug={slug} inputRef={typedInput} describedBy="kitchen-feedback" onOutcome={onOutcome} />
        <div id="kitchen-feedback" className="min-w-64 flex-1 self-center">
          <p role="status" data-testid="kitchen-status" className="text-2xl font-bold text-emerald-800">
            {feedback?.tone === "ok" ? feedback.text : ""}
          </p>
          <FormError testId="kitchen-error" message={feedback?.tone === "error" ? feedback.text : null} className="px-3 py-2 text-lg" />
        </div>
      </div>

      <div className="grid grid-cols-[1fr_15rem] items-start gap-4 px-4 py-3">
        <div className="space-y-4">
          <OrderSection id="to-prepare" title={t("sections.toPrepare")} count={toPrepare.length} empty={t("empty.toPrepare")} layout="grid">
            {toPrepare.map((o) => (
              <OrderCard key={o.id} order={o} layout="card" {...card} />
            ))}
          </OrderSection>
          <OrderSection id="waiting-pickup" title={t("sections.ready")} count={ready.length} empty={t("empty.ready")} layout="rows">
            {ready.map((o) => (
              <OrderCard key={o.id} order={o} layout="row" {...card} />
            ))}
          </OrderSection>
          <OrderSection
            id="not-collected"
            title={t("sections.notCollected")}
            count={notCollected.length}
            empty={t("empty.notCollected")}
            hint={t("notCollectedHint", { minutes: floor.readyClearMinutes })}
            tone="muted"
            layout="rows"
          >
            {notCollected.map((o) => (
              <OrderCard key={o.id} order={o} layout="row" {...card} />
            ))}
          </OrderSection>
        </div>
        <aside className="sticky top-4 flex max-h-[calc(100dvh-2rem)] flex-col">
          <CollectedList slug={slug} orders={collected} currentShift={currentShift} onMoved={onMoved} />
        </aside>
      </div>
    </div>
  );
}
