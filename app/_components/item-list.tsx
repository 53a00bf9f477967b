import { useTranslations } from "next-intl";
import { lineLabel } from "@/lib/core/menu-options";
import type { OrderItem } from "@/lib/core/orders";

/** A dish with nothing but its name: a fixed-height ticket may cut it to one line, as it always did. */
export const isPlainLine = (item: OrderItem): boolean => !item.options?.length && !item.note && !item.soldOut;

/**
 * One line's words after its quantity: the dish with its options ("Beef noodles · Large ·
 * Extra spicy"), a flag when it was taken although sold out, and its note under it. A line
 * of an order taken before options reads as its name alone, as it always did. `oneLine`: the
 * words on one line, cut with an ellipsis, the flag kept (a line without a note only).
 */
export function LineText({ item, oneLine = false, noteClassName = "" }: { item: OrderItem; oneLine?: boolean; noteClassName?: string }) {
  const t = useTranslations("common.orderLine");
  const flag = item.soldOut ? (
    <span
      data-testid="line-sold-out"
      className={`${oneLine ? "shrink-0" : "ml-1.5 inline-block align-[0.1em]"} rounded-sm bg-red-700 px-1 text-[0.75em] leading-tight font-bold text-white`}
    >
      {t("soldOut")}
    </span>
  ) : null;
  if (oneLine && !item.note) {
    if (!flag) return <span className="min-w-0 truncate">{lineLabel(item)}</span>;
    return (
      <span className="flex min-w-0 items-center gap-1.5">
        <span className="truncate">{lineLabel(item)}</span>
        {flag}
      </span>
    );
  }
  return (
    // Chinese breaks between the options, not inside a dish's name ("牛肉面 · 大碗 · / 特辣").
    <span className="min-w-0 break-words break-keep">
      {lineLabel(item)}
      {flag}
      {item.note ? (
        <span data-testid="line-note" className={`block italic [word-break:normal] ${noteClassName}`}>
          <span className="sr-only">{t("note")} </span>
          {item.note}
        </span>
      ) : null}
    </span>
  );
}

/**
 * What was ordered, "2× Noodles" a line: the kitchen card, the customer's page and the ticket,
 * each in its own size. `price`: what a line comes to, printed at its end (the ticket).
 */
export function ItemList({
  items,
  className,
  rowClassName,
  qtyClassName,
  noteClassName,
  price,
}: {
  items: readonly OrderItem[];
  className?: string;
  rowClassName: string;
  qtyClassName: string;
  noteClassName?: string;
  price?: (item: OrderItem) => string | null;
}) {
  return (
    <ul className={className}>
      {items.map((item, i) => {
        const amount = price?.(item) ?? null;
        return (
          <li key={i} className={`flex ${rowClassName}`}>
            <span className={`shrink-0 tabular-nums ${qtyClassName}`}>{item.qty}×</span>
            <LineText item={item} noteClassName={noteClassName} />
            {amount ? (
              <span data-testid="line-price" className="ml-auto shrink-0 pl-[1.5mm] tabular-nums">
                {amount}
              </span>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
