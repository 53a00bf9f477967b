import type { IssuedTicket } from "./actions";

/** The printable ticket: the only thing that leaves the printer (see `.print-ticket` in globals.css). */
export function Ticket({ ticket }: { ticket: IssuedTicket }) {
  return (
    <article aria-label={`Ticket for order ${ticket.number}`} className="print-ticket mx-auto w-full max-w-xs rounded-lg border-2 border-dashed border-slate-400 bg-white p-5 text-center text-black shadow-sm">
      <p className="text-lg font-bold">{ticket.restaurant}</p>
      <p className="mt-3 text-sm font-semibold uppercase tracking-widest">Your number</p>
      <p className="text-7xl leading-none font-black tabular-nums">{ticket.number}</p>
      <p className="mt-2 text-sm">Ordered at {ticket.time}</p>
      {ticket.items.length > 0 ? (
        <ul className="mt-3 border-t border-dashed border-slate-400 pt-3 text-left text-base">
          {ticket.items.map((item, i) => (
            <li key={i} className="flex gap-2">
              <span className="w-10 shrink-0 text-right font-semibold tabular-nums">{item.qty}×</span>
              <span className="break-words">{item.name}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {ticket.note ? <p className="mt-2 text-left text-sm italic">Note: {ticket.note}</p> : null}
      <div className="mt-3 border-t border-dashed border-slate-400 pt-3">
        {/* A data: URL generated on the server; next/image adds nothing here. */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img src={ticket.qr} alt="QR code to follow this order on your phone" width={160} height={160} className="mx-auto size-40" />
        <p className="mt-1 text-sm">Scan to see when your order is ready</p>
        <p className="mt-1 text-[10px] break-all text-slate-600">{ticket.url}</p>
      </div>
    </article>
  );
}
