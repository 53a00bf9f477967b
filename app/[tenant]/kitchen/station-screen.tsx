"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslations } from "next-intl";
import { allDay } from "@/lib/core/all-day";
import { ticketMarks } from "@/lib/core/ticket";
import { tenantForm, useLiveData } from "@/app/_components/use-live-data";
import { OfflineBanner } from "@/app/_components/offline-banner";
import { readKitchen, type StationTypedOutcome } from "./actions";
import { AllDayPanel } from "./all-day-panel";
import { KeyLegend } from "./key-legend";
import { SoldOut } from "./sold-out";
import { OrderSection } from "./order-section";
import { StationDoneList, recentlyDone } from "./station-done-list";
import { StationSwitcher } from "./station-switcher";
import { StationTicket } from "./station-ticket";
import { useTicketLines } from "./ticket-lines";
import { TypedChoice } from "./typed-choice";
import { AllDayToggle, KitchenFeedback, type Feedback } from "./kitchen-header";
import { TypedNumberForm } from "./typed-number-form";
import type { KitchenData, KitchenOrder } from "./types";
import { UnknownStation } from "./unknown-station";
import { useBumpKeys } from "./use-bump-keys";
import { ServerReachedAt } from "./use-order-action";
import { useStationMoves, type OnPartMoved } from "./use-station-moves";

const NO_PREFIXES: readonly string[] = [];
const FEEDBACK_MS = 6_000;
const TICK_MS = 15_000;

/**
 * A station's own screen (issue #40): the orders with work for it, oldest first, each with
 * only the station's lines; Done (a tap, Enter on the selected ticket, or a typed number)
 * finishes the station's share, and the order is ready when its last share is done. What
 * the station did lately stays on the right with Undo. Re-read on every board event.
 */
export function StationScreen({ slug, stationId, initial, serverNow }: { slug: string; stationId: string; initial: KitchenData; serverNow: number }) {
  const t = useTranslations("kitchen");
  const live = useLiveData(slug, initial, async () => {
    const r = await readKitchen(null, tenantForm(slug, { station: stationId }));
    return r?.ok ? r.data : null;
  });
  const { open, currentShift, floor, businessDay, station } = live.data;
  const prefixes = live.data.prefixes ?? NO_PREFIXES;
  const [now, setNow] = useState(serverNow);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [showAllDay, setShowAllDay] = useState(false);
  const typedInput = useRef<HTMLInputElement>(null);
  const gridSection = useRef<HTMLDivElement>(null);
  const lines = useTicketLines();
  const name = station?.name ?? "";

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

  const onPartMoved: OnPartMoved = useCallback(
    (o, move, refocus) => {
      const key = move === "undone" ? "station.undone" : o.status === "READY" ? "station.doneReady" : "station.doneText";
      setFeedback({ tone: "ok", text: t(key, { number: o.display, station: name }) });
      if (refocus) typedInput.current?.focus();
    },
    [t, name],
  );

  const onOutcome = useCallback(
    (r: StationTypedOutcome) => {
      if (r.kind === "done") onPartMoved(r.order, "done", false);
      else if (r.kind === "unknown") setFeedback({ tone: "error", text: t("typed.unknown", { number: r.display }) });
      else if (r.kind === "nothingHere") setFeedback({ tone: "error", text: t("station.nothingHere", { number: r.display, station: name }) });
      else if (r.kind === "unknownPrefix") setFeedback({ tone: "error", text: t("typed.unknownPrefix", { prefix: r.prefix }) });
      else if (r.kind === "several") setFeedback({ tone: "choice", display: r.display, ids: r.candidates.map((c) => c.id) });
      else setFeedback({ tone: "error", text: prefixes[0] ? t("typed.invalidPrefixed", { example: `${prefixes[0]}42` }) : t("typed.invalid") });
    },
    [t, name, prefixes, onPartMoved],
  );

  const moves = useStationMoves(slug, stationId, onPartMoved);
  const done = recentlyDone(live.data.doneHere ?? [], now);
  const keys = useBumpKeys({
    ids: { grid: open.map((o) => o.id), side: done.map((o) => o.id) },
    grid: gridSection,
    typedInput,
    // Enter on a ticket to prepare is its Done; on a row of "Done here", its Undo.
    onBump: (id) => (open.some((o) => o.id === id) ? moves.done(id, null) : moves.undo(id, null)),
  });

  if (!station) {
    return <UnknownStation slug={slug} stations={live.data.stations ?? []} />;
  }

  const marks = (o: KitchenOrder) => ticketMarks(o, { shift: currentShift, businessDay });
  const selectedOrder = [...open, ...done].find((o) => o.id === keys.selectedId);
  const noop = () => {};

  return (
    <ServerReachedAt value={live.lastUpdated}>
      <div data-connection={live.state} data-station={station.id} className="flex h-full min-h-0 flex-col">
        <OfflineBanner state={live.state} lastUpdated={live.lastUpdated} />
        <div className="flex shrink-0 flex-wrap items-center gap-x-5 gap-y-1 border-b-2 border-slate-200 bg-white px-4 py-1.5">
          <div className="flex min-w-0 items-baseline gap-2">
            <h1 data-testid="station-name" className="max-w-[22rem] truncate text-4xl leading-tight font-black tracking-tight">
              {station.name}
            </h1>
            <p className="text-base font-semibold text-slate-700">{t("station.caption", { shift: currentShift })}</p>
          </div>
          <TypedNumberForm
            slug={slug}
            inputRef={typedInput}
            describedBy="kitchen-feedback"
            letters={prefixes.length > 0}
            leaveChoice={feedback?.tone === "choice" ? () => setFeedback(null) : undefined}
            target={{ station: station.id, onOutcome }}
          />
          <KitchenFeedback feedback={feedback} actionError={moves.error} />
          <AllDayToggle shown={showAllDay} onToggle={() => setShowAllDay((v) => !v)} />
          <SoldOut slug={slug} />
          <StationSwitcher slug={slug} stations={live.data.stations ?? []} current={station.id} />
          {feedback?.tone === "choice" ? (
            <TypedChoice
              choice={feedback}
              open={open}
              marks={marks}
              pending={moves.pending}
              typedInput={typedInput}
              onPick={(o, trigger) => moves.done(o.id, trigger)}
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
              title={t("station.toPrepare", { station: station.name })}
              count={open.length}
              empty={t("station.empty", { station: station.name })}
              layout="grid"
              className="flex-1"
              action={<KeyLegend station />}
            >
              {open.map((o) => (
                <StationTicket
                  key={o.id}
                  slug={slug}
                  station={station}
                  order={o}
                  marks={marks(o)}
                  now={now}
                  floor={floor}
                  lines={lines}
                  selected={o.id === keys.selectedId}
                  onPartMoved={onPartMoved}
                  onMoved={noop}
                  onCalled={noop}
                />
              ))}
            </OrderSection>
          </div>
          {showAllDay ? (
            <div className="flex w-44 shrink-0 flex-col pt-8">
              <AllDayPanel id="all-day" lines={allDay(open)} />
            </div>
          ) : null}
          <aside className="flex w-72 shrink-0 flex-col">
            <StationDoneList slug={slug} station={station.id} orders={done} selectedId={keys.selectedId} onPartMoved={onPartMoved} />
          </aside>
        </div>
      </div>
    </ServerReachedAt>
  );
}
