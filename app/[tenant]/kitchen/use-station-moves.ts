"use client";

import { stationDone, stationUndo, type PartChanged } from "./actions";
import { usedKeyboard } from "./buttons";
import { useOrderAction } from "./use-order-action";

/** Said after a station's Done or Undo; `refocus` when the cook works with the keyboard (the ticket is about to leave). */
export type OnPartMoved = (order: PartChanged, move: "done" | "undone", refocus: boolean) => void;

/** A station's Done and Undo of its share of an order, for one control (its own pending and error). */
export function useStationMoves(slug: string, station: string, onPartMoved: OnPartMoved) {
  const { run, pending, error } = useOrderAction(slug);
  return {
    pending,
    error,
    done: (id: string, trigger: Element | null) => {
      const refocus = usedKeyboard(trigger);
      run(stationDone, { id, station }, (o) => onPartMoved(o, "done", refocus));
    },
    undo: (id: string, trigger: Element | null) => {
      const refocus = usedKeyboard(trigger);
      run(stationUndo, { id, station }, (o) => onPartMoved(o, "undone", refocus));
    },
  };
}
