"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslations } from "next-intl";
import { allDay } from "@/lib/core/all-day";
import { kitchenSections } from "@/lib/core/kitchen-sections";
import { ticketMarks } from "@/lib/core/ticket";
import { nextStep } from "@/lib/core/orders";
import { tenantForm, useLiveData } from "@/app/_components/use-live-data";
import { OfflineBanner } from "@/app/_components/offline-banner";
import { changeOrderStatus, readKitchen, type StatusChanged, type TypedOutcome } from "./actions";
import { AllDayPanel } from "./all-day-panel";
import { CollectedList } from "./collected-list";
import { KeyLegend } from "./key-legend";

import { OrderSection } from "./order-section";
import { PartChips } from "./part-chips";
import { StationSwitcher } from "./station-switcher";
import { PickupRow } from "./pickup-row";
import { SoldOut } from "./sold-out";
import { Ticket } from "./ticket";
import { useTicketLines } from "./ticket-lines";
import { TypedChoice } from "./typed-choice";
import { AllDayToggle, KitchenFeedback, type Feedback } from "./kitchen-header";
import { TypedNumberForm } from "./typed-number-form";
import type { KitchenData, KitchenOrder } from "./types";
import { useBumpKeys } from "./use-bump-keys";
import { ServerReachedAt, useOrderAction } from "./use-order-action";
import { usedKeyboard } from "./buttons";

const NO_PREFIXES: readonly string[] = [];

/** How long a confirmation stays. */
const FEEDBACK_MS = 6_000;
/** Ages are in whole minutes: a tick well under a minute keeps them right. */
const TICK_MS = 15_000;

/** A confirmation, an error, or the question which order a typed number means. */
/**
 * The kitchen's screen for a rush, laid out like a KDS: the orders to prepare as
 * fixed-height tickets, oldest first, in a grid that scrolls by itself; the pickup column
 * (ready, not collected, recently collected) always on the right; the page never scrolls.
 * Any board event re-reads the whole screen (simple and always right); the clock ticking
 * moves ages and the "not collected" pile.
 */
export function KitchenScreen({ slug, initial, serverNow }: { slug: string; initial: KitchenData; serverNow: number }) {
  const t = useTranslations("kitchen");
  const live = useLiveData(slug, initial, async () => {
    const r = await readKitchen(null, tenantForm(slug));
    return r?.ok ? r.data : null;
  });
  const { open, collected, currentShift, floor, businessDay } = live.data;
  // A page rendered by an older release has no prefixes: numbers only.
  const prefixes = live.data.prefixes ?? NO_PREFIXES;
  const [now, setNow] = useState(serverNow);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [showAllDay, setShowAllDay] = useState(false);
  const typedInput = useRef<HTMLInputElement>(null);
  const gridSection = useRef<HTMLDivElement>(null);
  const lines = useTicketLines();
  const bump = useOrderAction(slug);

  // A confirmation ("12 → Ready") says its piece and goes; an error stays until the next action.
  useEffect(() => {
    if (feedback?.tone !== "ok") return;
    const timer = setTimeout(() => setFeedback(null), FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [feedback]);

  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);

  const moved = useCallback(
    (o: StatusChanged) => {
      const status = t(`status.${o.status}`);
      return o.shift < currentShift ? t("typed.movedOfShift", { number: o.display, shift: o.shift, status }) : t("typed.moved", { number: o.display, status });
    },
    [t, currentShift],
  );

  const onMoved = useCallback(
    (o: StatusChanged, refocus: boolean) => {
      setFeedback({ tone: "ok", text: moved(o) });
      // The ticket is about to leave its pile: a keyboard user continues from the number field.
      if (refocus) typedInput.current?.focus();
    },
    [moved],
  );
  const onCalled = useCallback((o: StatusChanged) => setFeedback({ tone: "ok", text: t("called", { number: o.display }) }), [t]);

  const onOutcome = useCallback(
    (r: TypedOutcome) => {
      if (r.kind === "moved") setFeedback({ tone: "ok", text: moved(r.order) });
      else if (r.kind === "unknown") setFeedback({ tone: "error", text: t("typed.unknown", { number: r.display }) });
      else if (r.kind === "unknownPrefix") setFeedback({ tone: "error", text: t("typed.unknownPrefix", { prefix: r.prefix }) });
      else if (r.kind === "several") setFeedback({ tone: "choice", display: r.display, ids: r.candidates.map((c) => c.id) });
      // With series the example shows a letter too: "42 or K42".
      else setFeedback({ tone: "error", text: prefixes[0] ? t("typed.invalidPrefixed", { example: `${prefixes[0]}42` }) : t("typed.invalid") });
    },
    [t, moved, prefixes],
  );

  /** The cook chose which order a typed number meant: it moves one step, from the status it has now. */
  const onPick = useCallback(
    (o: KitchenOrder, trigger: Element) => {
      const status = nextStep(o.status);
      const refocus = usedKeyboard(trigger);
      if (status) bump.run(changeOrderStatus, { id: o.id, status }, (data) => onMoved(data, refocus));
    },
    [bump, onMoved],
  );

  const { toPrepare, ready, notCollected } = kitchenSections(open, now, floor.readyClearMinutes);
  const side = [...ready, ...notCollected];
  const keys = useBumpKeys({
    ids: { grid: toPrepare.map((o) => o.id), side: side.map((o) => o.id) },
    grid: gridSection,
    typedInput,
    onBump(id) {
      const order = open.find((o) => o.id === id);
      const status = order && nextStep(order.status);
      if (status) bump.run(changeOrderStatus, { id, status }, (data) => onMoved(data, false));
    },
  });
  const selectedOrder = open.find((o) => o.id === keys.selectedId);
  const card = { slug, now, floor, onMoved, onCalled };
  const marks = (o: KitchenOrder) => ticketMarks(o, { shift: currentShift, businessDay });
  const pickupRow = (o: KitchenData["open"][number]) => <PickupRow key={o.id} order={o} marks={marks(o)} selected={o.id === keys.selectedId} {...card} />;

  return (
    <ServerReachedAt value={live.lastUpdated}>
      <div data-connection={live.state} className="flex h-full min-h-0 flex-col">
        <OfflineBanner state={live.state} lastUpdated={live.lastUpdated} />
        <div className="flex shrink-0 flex-wrap items-center gap-x-5 gap-y-1 border-b-2 border-slate-200 bg-white px-4 py-1.5">
          <div className="flex items-baseline gap-2">
            <h1 className="text-2xl leading-tight font-extrabold tracking-tight">{t("title")}</h1>
            <p className="text-base font-semibold text-slate-700">{t("currentShift", { shift: currentShift })}</p>
          </div>
          <TypedNumberForm
            slug={slug}
            inputRef={typedInput}
            describedBy="kitchen-feedback"
            letters={prefixes.length > 0}
            leaveChoice={feedback?.tone === "choice" ? () => setFeedback(null) : undefined}
            target={{ onOutcome }}
          />
          <KitchenFeedback feedback={feedback} actionError={bump.error} />
          <AllDayToggle shown={showAllDay} onToggle={() => setShowAllDay((v) => !v)} />
          <SoldOut slug={slug} />
          <StationSwitcher slug={slug} stations={live.data.stations ?? []} current={null} />
          {/* The question takes a line of its own under the header: one row, the tickets stay in sight. */}
          {feedback?.tone === "choice" ? (
            <TypedChoice
              choice={feedback}
              open={open}
              marks={marks}
              pending={bump.pending}
              typedInput={typedInput}
              onPick={onPick}
              onClose={() => setFeedback(null)}
            />
          ) : null}
          <p aria-live="polite" className="sr-only">
            {selectedOrder ? t("keys.selected", { number: selectedOrder.display }) : ""}
          </p>
        </div>

        <div className="flex min-h-0 flex-1 gap-3 px-3 pt-1 pb-2">
          <div ref={gridSection} className="flex min-h-0 min-w-0 flex-1 flex-col">
            <OrderSection
              id="to-prepare"
              title={t("sections.toPrepare")}
              count={toPrepare.length}
              empty={t("empty.toPrepare")}
              layout="grid"
              className="flex-1"
              action={<KeyLegend />}
            >
              {toPrepare.map((o) => (
                <Ticket
                  key={o.id}
                  order={o}
                  marks={marks(o)}
                  lines={lines}
                  selected={o.id === keys.selectedId}
                  extra={o.stations?.length ? <PartChips order={o} readyWhen={live.data.readyWhen ?? "parts"} className="h-5" /> : undefined}
                  {...card}
                />
              ))}
            </OrderSection>
          </div>
          {showAllDay ? (
            <div className="flex w-40 shrink-0 flex-col pt-8">
              <AllDayPanel id="all-day" lines={allDay(open)} />
            </div>
          ) : null}
          <aside className="flex w-80 shrink-0 flex-col gap-2">
            <OrderSection id="waiting-pickup" title={t("sections.ready")} count={ready.length} empty={t("empty.ready")} layout="rows" className="shrink">
              {ready.map(pickupRow)}
            </OrderSection>
            <OrderSection
              id="not-collected"
              title={t("sections.notCollected")}
              count={notCollected.length}
              empty={t("empty.notCollected")}
              hint={t("notCollectedHint", { minutes: floor.readyClearMinutes })}
              tone="muted"
              layout="rows"
              className="max-h-[32%] shrink-0"
            >
              {notCollected.map(pickupRow)}
            </OrderSection>
            <div className="mt-auto flex max-h-[26%] min-h-0 shrink-0 flex-col">
              <CollectedList slug={slug} orders={collected} currentShift={currentShift} onMoved={onMoved} />
            </div>
          </aside>
        </div>
      </div>
    </ServerReachedAt>
  );
}
