"use client";

import { useLayoutEffect, useState, type RefObject } from "react";

/** True while the element's text is cut (a clamped note): then the ticket offers to show it whole. */
export function useOverflow(ref: RefObject<HTMLElement | null>): boolean {
  const [cut, setCut] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return setCut(false);
    const check = () => setCut(el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return cut;
}
