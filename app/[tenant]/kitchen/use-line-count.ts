"use client";

import { useLayoutEffect, useState, type RefObject } from "react";

/** Lines the element's text wraps to at `lineHeight` px (a ticket's note): the ticket makes room for every one. */
export function useLineCount(ref: RefObject<HTMLElement | null>, lineHeight: number): number {
  const [lines, setLines] = useState(1);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return setLines(1);
    const check = () => setLines(Math.max(1, Math.round(el.getBoundingClientRect().height / lineHeight)));
    check();
    const observer = new ResizeObserver(check);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, lineHeight]);
  return lines;
}
