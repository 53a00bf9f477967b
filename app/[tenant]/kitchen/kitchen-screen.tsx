"use client";

import { useEffect, useState } from "react";
import { useLiveRefresh } from "@/app/_components/use-live-refresh";
import { ConnectionBadge } from "@/app/_components/connection-badge";
import { OrderCard, type KitchenOrder } from "./order-card";

/** Open orders as cards; any board event re-renders the page from the server (simple and always right). */
export function KitchenScreen({ slug, orders, currentShift, serverNow }: { slug: string; orders: KitchenOrder[]; currentShift: number; serverNow: number }) {
  const [now, setNow] = useState(serverNow);
  const connection = useLiveRefresh(slug);

  useEffect(() => {
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 20_000);
    return () => clearInterval(t);
  }, []);

  const preparing = orders.filter((o) => o.status === "PLACED");
  const ready = orders.filter((o) => o.status === "READY");

  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-extrabold tracking-tight">Kitchen</h1>
        <div className="flex items-center gap-3">
          <p className="text-lg text-slate-700">Current shift: {currentShift}</p>
          <ConnectionBadge state={connection} />
        </div>
      </div>

      <OrderSection id="to-prepare" title="To prepare" empty="Nothing to prepare right now." orders={preparing} slug={slug} currentShift={currentShift} now={now} />
      <OrderSection id="waiting-pickup" title="Ready — waiting for pickup" empty="No orders waiting for pickup." orders={ready} slug={slug} currentShift={currentShift} now={now} />
    </div>
  );
}

function OrderSection({
  id,
  title,
  empty,
  orders,
  ...card
}: {
  id: string;
  title: string;
  empty: string;
  orders: KitchenOrder[];
  slug: string;
  currentShift: number;
  now: number;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-3 text-2xl font-bold">
        {title} <span className="text-slate-500">({orders.length})</span>
      </h2>
      {orders.length === 0 ? (
        <p className="rounded-xl border-2 border-dashed border-slate-300 p-6 text-center text-xl text-slate-600">{empty}</p>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {orders.map((o) => (
            <OrderCard key={o.id} order={o} {...card} />
          ))}
        </div>
      )}
    </section>
  );
}
