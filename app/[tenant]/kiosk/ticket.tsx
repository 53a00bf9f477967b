"use client";

import { ItemList } from "@/app/_components/item-list";
import { useLocale, useTranslations } from "next-intl";
import { formatMoney } from "@/lib/core/money";
import type { IssuedTicket } from "./actions";
import type { Paper } from "./use-kiosk-device";
import { numberWidth } from "@/app/_lib/number-width";

/** Sizes in millimetres so the same ticket fits the paper on screen (preview) and on the printer. */
const SIZE: Record<Paper, { page: string; number: number; inner: number; text: string; title: string; qr: string }> = {
  58: { page: "w-[58mm] px-[4mm] py-[3mm]", number: 20, inner: 50, text: "text-[3.2mm]", title: "text-[4.4mm]", qr: "size-[32mm]" },
  80: { page: "w-[80mm] px-[5mm] py-[4mm]", number: 26, inner: 70, text: "text-[3.8mm]", title: "text-[5.2mm]", qr: "size-[42mm]" },
};

/** The number's size (mm): as large as the paper's size for it, smaller when "K123" would not fit between the margins (`inner`). */
const numberSize = (display: string, paper: { number: number; inner: number }) => `${Math.min(paper.number, paper.inner / numberWidth(display)).toFixed(1)}mm`;

/** The URL without its scheme: shorter on paper, still typed as is. */
const shortUrl = (url: string) => url.replace(/^https?:\/\//, "");

/** The customer's ticket: big number, eat in or take away, restaurant, time, items with their prices, total, QR code and the link. */
export function Ticket({ ticket, paper }: { ticket: IssuedTicket; paper: Paper }) {
  const t = useTranslations("kiosk.ticket");
  const tk = useTranslations("kiosk");
  const ts = useTranslations("common.service");
  const locale = useLocale();
  const s = SIZE[paper];
  // A ticket remembered by an older release has no total.
  const total = ticket.total ?? null;
  const currency = ticket.currency ?? null;
  const linePrice = (item: IssuedTicket["items"][number]) => (item.priceCents === undefined ? null : formatMoney(item.priceCents * item.qty, locale, currency));
  return (
    <article
      aria-label={t("label", { number: ticket.display ?? ticket.number })}
      data-testid="ticket"
      data-paper={paper}
      className={`box-border bg-white text-center leading-snug text-black ${s.page} ${s.text}`}
    >
      <p className={`font-bold break-words ${s.title}`}>{ticket.restaurant}</p>
      <p className="mt-[2mm] font-semibold tracking-widest uppercase">{t("yourNumber")}</p>
      <p
        data-testid="ticket-number"
        className="leading-none font-black tabular-nums"
        style={{ fontSize: numberSize(ticket.display ?? String(ticket.number), s) }}
      >
        {ticket.display ?? ticket.number}
      </p>
      {ticket.service ? (
        <p
          data-testid="ticket-service"
          className={`mx-auto mt-[1.5mm] w-fit border-[0.6mm] border-black px-[2.5mm] py-[0.5mm] font-black tracking-wider uppercase ${s.title}`}
        >
          {ts(ticket.service)}
        </p>
      ) : null}
      <p className="mt-[1.5mm]">{t("orderedAt", { time: ticket.time })}</p>
      {ticket.items.length > 0 ? (
        <ItemList
          items={ticket.items}
          className="mt-[2mm] border-t border-dashed border-black pt-[2mm] text-left"
          rowClassName="gap-[1.5mm]"
          qtyClassName="w-[9mm] text-right font-semibold"
          price={linePrice}
        />
      ) : null}
      {total ? (
        <div data-testid="ticket-total" className="mt-[1.5mm] border-t border-black pt-[1.5mm] text-left">
          <p className={`flex justify-between font-bold ${s.title}`}>
            <span>{tk("total")}</span>
            <span className="tabular-nums">{formatMoney(total.cents, locale, currency)}</span>
          </p>
          {total.unpriced > 0 ? <p>{tk("totalUnpriced", { count: total.unpriced })}</p> : null}
        </div>
      ) : null}
      {ticket.note ? <p className="mt-[1.5mm] text-left break-words italic">{t("note", { note: ticket.note })}</p> : null}
      <div className="mt-[2mm] border-t border-dashed border-black pt-[2mm]">
        {/* A data: URL generated on the server; next/image adds nothing here. */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img src={ticket.qr} alt={t("qrAlt")} className={`mx-auto ${s.qr}`} />
        <p className="mt-[1mm] font-semibold">{t("scan")}</p>
        <p data-testid="ticket-url" className="mt-[1mm] text-[2.6mm] break-all">
          {shortUrl(ticket.url)}
        </p>
      </div>
    </article>
  );
}
