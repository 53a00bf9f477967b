"use client";

import { useEffect, useEffectEvent, useState, type RefObject } from "react";
import { keepSpot, moveSpot, type ArrowKey, type TicketArea, type TicketSpot } from "@/lib/core/ticket";

const ARROWS: Record<string, ArrowKey> = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down" };

type Selected = TicketSpot & { id: string };

/** Columns the grid shows now (they follow the screen's width). */
function columnsOf(grid: HTMLElement | null): number {
  const tracks = grid ? getComputedStyle(grid).gridTemplateColumns.split(" ").filter(Boolean).length : 0;
  return Math.max(1, tracks);
}

/**
 * The keyboard as a bump bar: arrows select a ticket, Enter (with the number field empty)
 * moves it one step, Esc lets go. Typed numbers keep working: Enter after digits is theirs.
 * Keys typed into any other field, or taken by the "which 12?" question (typed-choice.tsx), are left alone.
 */
export function useBumpKeys({
  ids,
  grid,
  typedInput,
  onBump,
}: {
  ids: Record<TicketArea, readonly string[]>;
  grid: RefObject<HTMLElement | null>;
  typedInput: RefObject<HTMLInputElement | null>;
  onBump: (id: string) => void;
}) {
  const [anchor, setAnchor] = useState<Selected | null>(null);
  // A bumped ticket leaves: the one now in its place is selected (lib/core/ticket.ts).
  const selected = keepSpot(ids, anchor);

  const onKey = useEffectEvent((e: KeyboardEvent) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target as HTMLElement;
    const typed = target === typedInput.current;
    if (!typed && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    const arrow = ARROWS[e.key];
    if (arrow) {
      e.preventDefault();
      const to = moveSpot({ grid: ids.grid.length, side: ids.side.length }, columnsOf(grid.current?.querySelector("[data-scroll]") ?? null), selected, arrow);
      setAnchor(to ? { ...to, id: ids[to.area][to.index]! } : null);
    } else if (e.key === "Escape" && selected) {
      e.preventDefault();
      setAnchor(null);
    } else if (e.key === "Enter" && selected && (typed ? typedInput.current?.value === "" : target === document.body)) {
      e.preventDefault();
      onBump(selected.id);
    }
  });

  useEffect(() => {
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  // The selected ticket is brought into view, wherever its pile has scrolled.
  useEffect(() => {
    if (selected) document.querySelector(`[data-order-id="${selected.id}"]`)?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [selected?.id]); // eslint-disable-line react-hooks/exhaustive-deps

  return { selectedId: selected?.id ?? null, clear: () => setAnchor(null) };
}
