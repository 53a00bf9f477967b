"use client";

import { startTransition, useActionState, useEffect, useState } from "react";
import { useRouter } from "next/navigation";
import type { OrderItem, OrderStatus } from "@/lib/core/orders";
import { formatAge } from "@/app/_lib/format";
import { callAction } from "@/app/_lib/client-action";
import { changeOrderStatus } from "./actions";
import { FormError } from "@/app/_components/form-error";

export interface KitchenOrder {
  id: string;
  number: number;
  shift: number;
  status: OrderStatus;
  items: OrderItem[];
  note: string | null;
  createdAt: string;
  readyAt: string | null;
  time: string;
}

function ageLabel(order: KitchenOrder, now: number): string {
  if (order.status === "READY" && order.readyAt) {
    const age = formatAge(order.readyAt, now);
    return age === "just now" ? "Ready just now" : `Ready for ${age}`;
  }
  const age = formatAge(order.createdAt, now);
  return age === "just now" ? "New" : `Waiting ${age}`;
}

type Result = Awaited<ReturnType<typeof changeOrderStatus>>;

const BUTTON = "rounded-xl px-5 py-3 text-xl font-bold focus:outline-none focus-visible:ring-4 disabled:cursor-wait disabled:opacity-60";

export function OrderCard({ slug, order, currentShift, now }: { slug: string; order: KitchenOrder; currentShift: number; now: number }) {
  const router = useRouter();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [state, dispatch, pending] = useActionState<Result, FormData>((prev, form) => callAction(changeOrderStatus, prev, form), null);

  // Someone else moved it (409) or it is gone (404): show the fresh list behind the message.
  useEffect(() => {
    if (state && !state.ok) router.refresh();
  }, [state, router]);

  function move(status: OrderStatus) {
    const form = new FormData();
    form.set("tenant", slug);
    form.set("id", order.id);
    form.set("status", status);
    setConfirmCancel(false);
    startTransition(() => dispatch(form));
  }

  const minutes = (now - new Date(order.createdAt).getTime()) / 60_000;
  const ready = order.status === "READY";
  const late = !ready && minutes >= 20 ? "late" : !ready && minutes >= 10 ? "slow" : null;
  const headingId = `order-${order.id}`;

  return (
    <article
      // Numbers restart each shift: orders still open from an earlier shift get a distinct id.
      data-testid={order.shift === currentShift ? `order-${order.number}` : `order-s${order.shift}-${order.number}`}
      aria-labelledby={headingId}
      aria-busy={pending || undefined}
      className={`flex flex-col rounded-2xl border-2 bg-white p-4 shadow-sm ${ready ? "border-emerald-600" : late === "late" ? "border-red-600" : late === "slow" ? "border-amber-500" : "border-slate-300"}`}
    >
      <div className="flex items-start justify-between gap-3">
        <h3 id={headingId} className="text-6xl leading-none font-black tabular-nums">
          <span className="sr-only">Order </span>
          {order.number}
          {order.shift !== currentShift ? <span className="sr-only"> from shift {order.shift}</span> : null}
        </h3>
        <div className="text-right">
          <p className={`text-lg font-semibold ${late === "late" ? "text-red-700" : late === "slow" ? "text-amber-700" : "text-slate-600"}`}>
            {ageLabel(order, now)}
          </p>
          <p className="text-sm text-slate-500">Ordered {order.time}</p>
          {order.shift !== currentShift ? (
            <p className="mt-1 inline-block rounded bg-violet-100 px-2 py-0.5 text-sm font-semibold text-violet-900">Shift {order.shift}</p>
          ) : null}
        </div>
      </div>

      {order.items.length > 0 ? (
        <ul className="mt-3 space-y-1 text-xl">
          {order.items.map((item, i) => (
            <li key={i} className="flex gap-2">
              <span className="w-12 shrink-0 text-right font-bold tabular-nums">{item.qty}×</span>
              <span className="min-w-0 break-words">{item.name}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-3 text-lg text-slate-500">No items listed</p>
      )}
      {order.note ? <p className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-lg font-medium text-amber-950">Note: {order.note}</p> : null}

      <FormError message={state && !state.ok ? state.error : null} className="mt-3 px-3 py-2 text-lg" />

      <div className="mt-auto pt-4">
        {confirmCancel ? (
          <div role="group" aria-label={`Cancel order ${order.number}?`} className="rounded-xl border-2 border-red-700 bg-red-50 p-3">
            <p className="mb-3 text-lg font-semibold text-red-900">Cancel order {order.number}? This cannot be undone.</p>
            <div className="flex flex-wrap gap-2">
              <button type="button" disabled={pending} onClick={() => move("CANCELLED")} className={`${BUTTON} bg-red-700 text-white hover:bg-red-800 focus-visible:ring-red-300`}>
                Yes, cancel order
              </button>
              <button type="button" autoFocus onClick={() => setConfirmCancel(false)} className={`${BUTTON} border-2 border-slate-400 bg-white text-slate-900 hover:bg-slate-100 focus-visible:ring-blue-300`}>
                Keep order
              </button>
            </div>
          </div>
        ) : (
          <div className={`grid gap-2 ${"grid-cols-[1fr_auto]"}`}>
            {order.status === "PLACED" ? (
              <button type="button" disabled={pending} onClick={() => move("READY")} className={`${BUTTON} bg-emerald-700 text-white hover:bg-emerald-800 focus-visible:ring-emerald-300`}>
                {pending ? "Saving…" : "Ready"}
              </button>
            ) : (
              <>
                <button type="button" disabled={pending} onClick={() => move("COLLECTED")} className={`${BUTTON} col-span-2 bg-blue-700 text-white hover:bg-blue-800 focus-visible:ring-blue-300`}>
                  {pending ? "Saving…" : "Collected"}
                </button>
                <button type="button" disabled={pending} onClick={() => move("PLACED")} className={`${BUTTON} border-2 border-slate-400 bg-white text-lg! text-slate-900 hover:bg-slate-100 focus-visible:ring-blue-300`}>
                  Back to preparing
                </button>
              </>
            )}
            <button type="button" disabled={pending} onClick={() => setConfirmCancel(true)} className={`${BUTTON} border-2 border-red-300 bg-white text-red-800 hover:border-red-700 hover:bg-red-50 focus-visible:ring-red-300`}>
              Cancel
            </button>
          </div>
        )}
      </div>
    </article>
  );
}
