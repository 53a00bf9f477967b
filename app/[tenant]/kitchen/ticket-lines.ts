"use client";

import { useSyncExternalStore } from "react";

/** The same height as the `tall` variant in app/globals.css: there tickets are taller and show more lines. */
const TALL = "(min-height: 1000px)";
/** Text lines a ticket has for badges, items and its note (see the heights in ticket.tsx). */
const LINES = { normal: 3, tall: 6 } as const;

const subscribe = (change: () => void) => {
  const query = window.matchMedia(TALL);
  query.addEventListener("change", change);
  return () => query.removeEventListener("change", change);
};

export function useTicketLines(): number {
  const tall = useSyncExternalStore(
    subscribe,
    () => window.matchMedia(TALL).matches,
    () => false,
  );
  return tall ? LINES.tall : LINES.normal;
}
