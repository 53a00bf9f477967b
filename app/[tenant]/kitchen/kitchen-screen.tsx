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

      <section aria-labelledby="to-prepare">
        <h2 id="to-prepare" className="mb-3 text-2xl font-bold">
          To prepare <span className="text-slate-500">({preparing.length})</span>
        </h2>
        {preparing.length === 0 ? (
          <p className="rounded-xl border-2 border-dashed border-slate-300 p-6 text-center text-xl text-slate-600">Nothing to prepare right now.</p>
        ) : (
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {preparing.map((o) => (
              <OrderCard key={o.id} slug={slug} order={o} currentShift={currentShift} now={now} />
            ))}
          </div>
        )}
      </section>

      <section aria-labelledby="waiting-pickup">
        <h2 id="waiting-pickup" className="mb-3 text-2xl font-bold">
          Ready — waiting for pickup <span className="text-slate-500">({ready.length})</span>
        </h2>
        {ready.length === 0 ? (
          <p className="rounded-xl border-2 border-dashed border-slate-300 p-6 text-center text-xl text-slate-600">No orders waiting for pickup.</p>
        ) : (
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {ready.map((o) => (
              <OrderCard key={o.id} slug={slug} order={o} currentShift={currentShift} now={now} />
            ))}
          </div>
        )}
      </section>
    </div>
  );
}
