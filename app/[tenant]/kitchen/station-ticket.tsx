"use client";

import { useTranslations } from "next-intl";
import type { TicketMarks } from "@/lib/core/ticket";
import { FormError } from "@/app/_components/form-error";
import { Icon } from "@/app/_components/icon";
import { BUTTON } from "./buttons";
import { Ticket } from "./ticket";
import type { KitchenFloor, KitchenOrder } from "./types";
import type { CardCallbacks } from "./use-order-moves";
import { useStationMoves, type OnPartMoved } from "./use-station-moves";

/** An order on a station's screen: its lines there, as the kitchen's ticket shows them, and one Done for the station's share. */
export function StationTicket({
  slug,
  station,
  onPartMoved,
  ...ticket
}: {
  slug: string;
  station: { id: string; name: string };
  order: KitchenOrder;
  marks: TicketMarks;
  now: number;
  floor: KitchenFloor;
  lines: number;
  selected: boolean;
  onPartMoved: OnPartMoved;
} & CardCallbacks) {
  const t = useTranslations("kitchen.station");
  const { done, pending, error } = useStationMoves(slug, station.id, onPartMoved);
  const actions = (
    <>
      <FormError message={error} className="absolute inset-x-1 bottom-12 z-10 px-2 py-1 text-sm" />
      <div className="shrink-0 px-1.5 pt-1 pb-1.5">
        <button
          type="button"
          disabled={pending}
          onClick={(e) => done(ticket.order.id, e.currentTarget)}
          aria-label={t("doneLabel", { number: ticket.order.display, station: station.name })}
          className={`${BUTTON.ready} w-full`}
        >
          <Icon name="check" />
          {t("done")}
        </button>
      </div>
    </>
  );
  return <Ticket slug={slug} {...ticket} actions={actions} />;
}
