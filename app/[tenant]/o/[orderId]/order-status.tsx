"use client";

import { useEffect, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import type { BoardOrder, OrderStatus } from "@/lib/core/orders";
import { useBoardSocket } from "@/app/_components/use-board-socket";
import { ConnectionBadge } from "@/app/_components/connection-badge";

const STATUS: Record<OrderStatus, { title: string; text: string; className: string }> = {
  PLACED: { title: "We're preparing your order", text: "This page updates by itself. Keep it open.", className: "bg-amber-100 text-amber-950 border-amber-500" },
  READY: { title: "Ready — please collect at the counter", text: "Show this number at the counter.", className: "bg-emerald-600 text-white border-emerald-800" },
  COLLECTED: { title: "Collected", text: "Enjoy your meal!", className: "bg-slate-100 text-slate-900 border-slate-400" },
  CANCELLED: { title: "Cancelled", text: "This order was cancelled. Please ask at the counter.", className: "bg-red-50 text-red-900 border-red-700" },
};

/** The customer's live view of one order: follows `order:updated` for this id only. */
export function OrderStatusView({ slug, restaurant, initial }: { slug: string; restaurant: string; initial: BoardOrder }) {
  const router = useRouter();
  const [order, setOrder] = useState(initial);
  const [seen, setSeen] = useState(initial);
  // A server refresh (after a reconnect) brings a fresh `initial`: adopt it.
  if (initial !== seen) {
    setSeen(initial);
    setOrder(initial);
  }
  const connection = useBoardSocket(slug, {
    // Catch up on anything missed while the phone was asleep or offline.
    onConnect: () => router.refresh(),
    onOrderUpdated: (o) => {
      if (o.id === initial.id) setOrder(o);
    },
  });

  useEffect(() => {
    document.title = order.status === "READY" ? `Ready! Number ${order.number}` : `Order ${order.number} · ${restaurant}`;
  }, [order.status, order.number, restaurant]);

  // A buzz when the order becomes ready while the page is open (phones that support it).
  const lastStatus = useRef(order.status);
  useEffect(() => {
    if (order.status === "READY" && lastStatus.current !== "READY") navigator.vibrate?.([200, 100, 200]);
    lastStatus.current = order.status;
  }, [order.status]);

  const s = STATUS[order.status];
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col px-5 py-8 text-center">
      <p className="text-xl font-semibold text-slate-700">{restaurant}</p>
      <p className="mt-6 text-lg font-semibold tracking-widest text-slate-600 uppercase">Your number</p>
      <p className="text-[8rem] leading-none font-black tabular-nums" data-testid="order-number">
        {order.number}
      </p>
      <div aria-live="polite" aria-atomic="true" className={`mt-8 rounded-2xl border-4 p-6 ${s.className}`} data-testid="order-status" data-status={order.status}>
        <h1 className="text-3xl font-extrabold">{s.title}</h1>
        <p className="mt-2 text-lg">{s.text}</p>
      </div>
      <div className="mt-8 flex justify-center">
        <ConnectionBadge state={connection} />
      </div>
    </main>
  );
}
