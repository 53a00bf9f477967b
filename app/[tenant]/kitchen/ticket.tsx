"use client";

import { useRef, useState, type ReactNode } from "react";
import { useTranslations } from "next-intl";
import { hasMarks, itemLines, wideNote, type TicketMarks } from "@/lib/core/ticket";
import { numberWidth } from "@/app/_lib/number-width";
import { FormError } from "@/app/_components/form-error";
import { Icon } from "@/app/_components/icon";
import { isPlainLine, LineText } from "@/app/_components/item-list";
import { BUTTON } from "./buttons";
import { CancelConfirm } from "./cancel-confirm";
import { AGE_BAND, TicketAge, ageBorder, ageLevelOf } from "./order-age";
import { OrderBadges } from "./order-badges";
import { orderArticleProps, orderHeadingId, orderName } from "./order-label";
import { TicketDetails } from "./ticket-details";
import type { KitchenFloor, KitchenOrder } from "./types";
import { useOrderMoves, type CardCallbacks } from "./use-order-moves";
import { useLineCount } from "./use-line-count";
import { useItemFit } from "./use-item-fit";

/**
 * Beside the age ("New", "12 min") a ticket's band at 1280 px leaves about 2.45 em of the
 * heading's size: "123" and "K12" fit whole; a wider number ("1234", "KDS1000") is set
 * smaller in proportion (glyph widths as the board and the kiosk measure them), never over
 * the age.
 */
const HEADING_ROOM_EM = 2.45;
const headingScale = (display: string) => Math.min(1, HEADING_ROOM_EM / numberWidth(display));

/** One line of text on a ticket (20 px): the heights below count in these (see ticket-lines.ts). */
const LINE = "h-5 leading-5";
const LINE_PX = 20;
/**
 * Border 4 + band 36 + lines + buttons 46 px: 3 lines (148 px, four rows at 800 px high), or
 * 6 on a tall screen. Items are clamped to fit (a dish's options wrap and its note takes a
 * line of its own: they count as the lines they take); only a note, or a first dish, longer
 * than that grows the ticket.
 */
const TICKET_HEIGHT = "min-h-[9.25rem] tall:min-h-[13rem]";
const MORE =
  "flex items-center rounded-md bg-slate-800 px-1.5 text-sm font-bold text-white hover:bg-slate-700 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-500";

/**
 * An order to prepare, as a KDS ticket: a fixed height whatever its size, so a long order
 * never pushes its neighbours; items that do not fit open in place ("+3 more"). The note
 * (allergies) is never cut: it wraps whole, items give it their lines, a long note's ticket
 * is two columns wide (wideNote), and a note longer than the ticket makes that ticket taller.
 */
export function Ticket({
  slug,
  order,
  marks,
  now,
  floor,
  lines,
  selected,
  extra,
  actions,
  ...callbacks
}: {
  slug: string;
  order: KitchenOrder;
  marks: TicketMarks;
  now: number;
  floor: KitchenFloor;
  lines: number;
  selected: boolean;
  /** One more line under the badges (the order's parts); it takes an item line. */
  extra?: ReactNode;
  /** The buttons instead of Ready and Cancel (a station's Done). */
  actions?: ReactNode;
} & CardCallbacks) {
  const t = useTranslations("kitchen");
  const { pending, error, confirmCancel, cancelButton, move, askCancel, keepOrder } = useOrderMoves(slug, order.id, callbacks);
  const [open, setOpen] = useState(false);
  const moreButton = useRef<HTMLButtonElement>(null);
  const noteRef = useRef<HTMLParagraphElement>(null);
  const noteLines = useLineCount(noteRef, LINE_PX);
  const headingId = orderHeadingId(order);
  const detailsId = `order-details-${order.id}`;
  // The parts' row (the main kitchen with stations) takes a line from the dishes, never from the note.
  const room = Math.max(1, itemLines(lines, { badges: hasMarks(marks), noteLines: order.note ? noteLines : 0 }) - (extra ? 1 : 0));
  const { list, measuring, shown, more, moreInline } = useItemFit(order.items, room, LINE_PX);
  const numberScale = headingScale(order.display);

  const moreChip = (
    <button
      ref={moreButton}
      type="button"
      aria-expanded={open}
      aria-controls={detailsId}
      aria-label={t("ticket.moreLabel", { number: order.display, count: more })}
      onClick={() => setOpen(true)}
      className={`${LINE} ${MORE}`}
    >
      {t("ticket.more", { count: more })}
    </button>
  );

  function close() {
    setOpen(false);
    requestAnimationFrame(() => moreButton.current?.focus());
  }

  return (
    <article
      {...orderArticleProps(order, marks, { selected, pending })}
      className={`relative flex flex-col self-start rounded-xl ${wideNote(order.note) ? "col-span-2" : ""} border-2 shadow-sm ${TICKET_HEIGHT} ${ageBorder(order, now, floor)} ${selected ? "bg-blue-50 outline-[6px] outline-offset-1 outline-blue-600" : "bg-white"}`}
    >
      <div className={`flex h-9 shrink-0 items-center justify-between gap-1 rounded-t-[0.625rem] px-1.5 ${AGE_BAND[ageLevelOf(order, now, floor)]}`}>
        <h3
          id={headingId}
          aria-label={orderName(t, order, marks)}
          className="text-4xl leading-none font-black whitespace-nowrap tabular-nums"
          style={numberScale < 1 ? { fontSize: `${(2.25 * numberScale).toFixed(2)}rem` } : undefined}
        >
          {order.display}
        </h3>
        <TicketAge order={order} now={now} floor={floor} />
      </div>
      <p className="sr-only">{t("ordered", { time: order.orderedAt })}</p>

      <div className="min-h-0 grow overflow-hidden px-1.5 pt-0.5">
        <OrderBadges order={order} marks={marks} className={`${LINE} overflow-hidden`} />
        {extra}
        {order.items.length === 0 ? (
          <p className={`${LINE} text-base text-slate-600`}>{t("noItems")}</p>
        ) : (
          <ul
            ref={list}
            data-testid="ticket-lines"
            className="text-base font-semibold"
            style={measuring ? { maxHeight: room * LINE_PX, overflow: "hidden" } : undefined}
          >
            {shown.map((item, i) => {
              const chip = moreInline && i === shown.length - 1;
              return (
                <li key={i} className="flex gap-1 leading-5">
                  <span className="shrink-0 font-black tabular-nums">{item.qty}×</span>
                  {/* A dish by name alone keeps one line, as before options; options and a note wrap whole, never cut. */}
                  <LineText item={item} oneLine={chip || isPlainLine(item)} noteClassName="font-semibold text-amber-900" />
                  {chip ? <span className="ml-auto shrink-0">{moreChip}</span> : null}
                </li>
              );
            })}
          </ul>
        )}
        {more > 0 && !moreInline ? moreChip : null}
        {order.note ? (
          <div
            data-testid="ticket-note"
            className="flex items-start gap-1 rounded-sm border-l-4 border-amber-600 bg-amber-100 pl-1 text-base leading-5 font-bold text-amber-950"
          >
            <Icon name="note" className="mt-0.5 size-4 shrink-0" />
            <p ref={noteRef} className="min-w-0 flex-1 break-words whitespace-pre-line">
              <span className="sr-only">{t("ticket.note")} </span>
              {order.note}
            </p>
          </div>
        ) : null}
      </div>

      <FormError message={error} className="absolute inset-x-1 bottom-12 z-10 px-2 py-1 text-sm" />

      {actions ?? (
        <div className="grid shrink-0 grid-cols-[1fr_auto] gap-1.5 px-1.5 pt-1 pb-1.5">
          <button type="button" disabled={pending} onClick={(e) => move("READY", e.currentTarget)} className={BUTTON.ready}>
            <Icon name="check" />
            {t("actions.ready")}
          </button>
          <button
            ref={cancelButton}
            type="button"
            disabled={pending}
            onClick={askCancel}
            aria-label={t("actions.cancel")}
            title={t("actions.cancelOrder", { number: order.display })}
            className={`${BUTTON.cancel} w-9`}
          >
            <Icon name="cross" />
          </button>
        </div>
      )}

      {open ? <TicketDetails id={detailsId} order={order} marks={marks} onClose={close} /> : null}
      {confirmCancel ? (
        <CancelConfirm
          number={order.display}
          pending={pending}
          onCancel={(trigger) => move("CANCELLED", trigger)}
          onKeep={keepOrder}
          className="absolute inset-0 z-20 flex flex-col justify-between shadow-xl"
        />
      ) : null}
    </article>
  );
}
