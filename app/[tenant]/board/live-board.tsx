"use client";

/**
 * The dining-room board on a TV: Preparing and Ready numbers, live; each number that
 * becomes ready (or that the kitchen calls again) is highlighted, chimed and said.
 * State and sync: use-live-board.ts; calling: use-caller.ts; layout: board-column.tsx.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useLocale, useTranslations } from "next-intl";
import type { BoardView } from "@/lib/core/board";
import { asLocale, DEFAULT_LOCALE } from "@/lib/core/locales";
import type { BoardOrder } from "@/lib/core/orders";
import { OfflineBanner } from "@/app/_components/offline-banner";
import type { ConnectionState } from "@/app/_components/use-board-socket";
import { BoardColumn } from "./board-column";
import { SoundControls } from "./sound-controls";
import { useCaller } from "./use-caller";
import { useLiveBoard } from "./use-live-board";

/** How long a called number stays highlighted. */
const HIGHLIGHT_MS = 12_000;

/** key → times called, each entry cleared HIGHLIGHT_MS after its last call. */
function useHighlights(): [ReadonlyMap<string, number>, (key: string) => void] {
  const [map, setMap] = useState<ReadonlyMap<string, number>>(() => new Map());
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const all = timers.current;
    return () => all.forEach(clearTimeout);
  }, []);
  const highlight = useCallback((key: string) => {
    setMap((m) => new Map(m).set(key, (m.get(key) ?? 0) + 1));
    clearTimeout(timers.current.get(key));
    timers.current.set(
      key,
      setTimeout(() => {
        timers.current.delete(key);
        setMap((m) => {
          const next = new Map(m);
          next.delete(key);
          return next;
        });
      }, HIGHLIGHT_MS),
    );
  }, []);
  return [map, highlight];
}

function ConnectionPill({ state }: { state: ConnectionState }) {
  const t = useTranslations("common.connection");
  const live = state === "live";
  return (
    <span
      data-testid="connection"
      data-state={state}
      className={`inline-flex items-center gap-2 rounded-full px-3 py-1 text-[min(1vw,1.8vh)] font-semibold ring-1 ${live ? "bg-emerald-950 text-emerald-200 ring-emerald-700" : "bg-amber-950 text-amber-200 ring-amber-600"}`}
    >
      <span aria-hidden="true" className={`size-2.5 rounded-full ${live ? "bg-emerald-400" : "animate-pulse bg-amber-400"}`} />
      {t(state)}
    </span>
  );
}

export function LiveBoard({ slug, name, initial, fallbackVoice }: { slug: string; name: string; initial: BoardView; fallbackVoice: boolean }) {
  const t = useTranslations("board");
  const locale = asLocale(useLocale()) ?? DEFAULT_LOCALE;
  const caller = useCaller(slug, locale, fallbackVoice);
  const [highlighted, highlight] = useHighlights();
  const onCall = useCallback(
    (o: BoardOrder) => {
      highlight(o.key);
      caller.call(o);
    },
    [highlight, caller],
  );
  const { board, connection, lastUpdated } = useLiveBoard(slug, initial, onCall);

  return (
    <div className="flex h-dvh flex-col overflow-hidden bg-black text-white">
      <OfflineBanner state={connection} lastUpdated={lastUpdated} tone="dark" />
      <header className="flex items-center justify-between gap-4 border-b border-slate-800 bg-slate-950 px-[2vw] py-[1vh]">
        <h1 className="truncate text-[min(2.6vw,4.5vh)] font-bold tracking-tight">{name}</h1>
        <p className="hidden text-[min(1.6vw,2.8vh)] text-slate-200 md:block">{t("hint")}</p>
        <div className="flex items-center gap-3">
          <SoundControls caller={caller} />
          <ConnectionPill state={connection} />
        </div>
      </header>
      <main className="grid min-h-0 flex-1 grid-cols-[2fr_3fr]">
        <BoardColumn kind="preparing" orders={board.preparing} current={board} highlighted={highlighted} />
        <BoardColumn kind="ready" orders={board.ready} current={board} highlighted={highlighted} />
      </main>
    </div>
  );
}
