"use client";

import { useLayoutEffect, useRef, useState } from "react";
import { lineLabel } from "@/lib/core/menu-options";
import type { OrderItem } from "@/lib/core/orders";
import { clampItems } from "@/lib/core/ticket";

/** What changes how tall the lines are: their words and the list's width. */
const textOf = (items: readonly OrderItem[]) => items.map((i) => `${i.qty}\u0000${lineLabel(i)}\u0000${i.note ?? ""}\u0000${i.soldOut ? 1 : 0}`).join("\u0001");

/**
 * The items of a ticket that fit its `room` lines of `lineHeight` px. A line with options
 * or a note takes more than one, so they are measured: every item is drawn once (the list
 * clipped to its room, before the screen paints), then only those that fit, with "+N more".
 * Measured again when the lines' words or the list's width change.
 */
export function useItemFit(items: readonly OrderItem[], room: number, lineHeight: number) {
  const list = useRef<HTMLUListElement>(null);
  const [width, setWidth] = useState(0);
  const [fit, setFit] = useState<{ text: string; width: number; costs: number[] } | null>(null);
  const text = textOf(items);
  const measured = fit !== null && fit.text === text && fit.width === width ? fit.costs : null;
  const hasItems = items.length > 0;

  useLayoutEffect(() => {
    const el = list.current;
    if (!el) return;
    const read = () => setWidth(Math.round(el.getBoundingClientRect().width));
    read();
    const observer = new ResizeObserver(read);
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasItems]);

  useLayoutEffect(() => {
    const el = list.current;
    if (measured || !el || el.children.length !== items.length) return;
    const costs = Array.from(el.children, (li) => Math.max(1, Math.round(li.getBoundingClientRect().height / lineHeight)));
    setFit({ text, width, costs });
  }, [measured, items.length, text, width, lineHeight]);

  const clamp = measured ? clampItems(items, room, measured) : { shown: [...items], more: 0, moreInline: false };
  return { list, measuring: measured === null, ...clamp };
}
