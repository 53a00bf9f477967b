"use client";

import { useRef, useState } from "react";
import type { OrderStatus } from "@/lib/core/orders";
import { callOrderAgain, changeOrderStatus, type StatusChanged } from "./actions";
import { usedKeyboard } from "./buttons";
import { useOrderAction } from "./use-order-action";

export interface CardCallbacks {
  /** A status changed: announce it; `refocus` when the user works with the keyboard (the ticket is about to move). */
  onMoved: (order: StatusChanged, refocus: boolean) => void;
  onCalled: (order: StatusChanged) => void;
}

/** The buttons of one open order (a ticket or a pickup row): moves, Call again, and Cancel that asks first. */
export function useOrderMoves(slug: string, id: string, { onMoved, onCalled }: CardCallbacks) {
  const { run, pending, error } = useOrderAction(slug);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const cancelButton = useRef<HTMLButtonElement>(null);

  return {
    pending,
    error,
    confirmCancel,
    cancelButton,
    move: (status: OrderStatus, trigger: Element | null) => {
      const refocus = usedKeyboard(trigger);
      setConfirmCancel(false);
      run(changeOrderStatus, { id, status }, (data) => onMoved(data, refocus));
    },
    callAgain: () => run(callOrderAgain, { id }, onCalled),
    askCancel: () => setConfirmCancel(true),
    keepOrder: () => {
      setConfirmCancel(false);
      requestAnimationFrame(() => cancelButton.current?.focus());
    },
  };
}
