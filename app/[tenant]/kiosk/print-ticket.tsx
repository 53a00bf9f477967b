"use client";

import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { Ticket } from "./ticket";
import type { IssuedTicket } from "./actions";
import type { Paper } from "./use-kiosk-device";

const MM_PER_PX = 25.4 / 96;

/**
 * What the printer gets: the ticket, alone, on a page exactly its size (a receipt printer
 * then feeds no blank paper). Rendered off screen as a direct child of <body>, so the
 * print styles in globals.css can hide everything else.
 */
export function PrintTicket({ ticket, paper }: { ticket: IssuedTicket | null; paper: Paper }) {
  const [body, setBody] = useState<HTMLElement | null>(null);
  const [heightMm, setHeightMm] = useState<number | null>(null);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => setBody(document.body), []);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setHeightMm(Math.ceil(el.getBoundingClientRect().height * MM_PER_PX) + 2);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [body, ticket, paper]);

  if (!body || !ticket) return null;
  return createPortal(
    <div ref={ref} className="print-root invisible fixed top-0 -left-[10000px] print:visible print:static" aria-hidden="true" data-testid="print-root">
      <style>{`@page { size: ${paper}mm ${heightMm ?? 150}mm; margin: 0; }`}</style>
      <Ticket ticket={ticket} paper={paper} />
    </div>,
    body,
  );
}
