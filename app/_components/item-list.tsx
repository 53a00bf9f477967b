import type { OrderItem } from "@/lib/core/orders";

/** What was ordered, "2× Noodles" a line: the kitchen card, the customer's page and the ticket, each in its own size. */
export function ItemList({
  items,
  className,
  rowClassName,
  qtyClassName,
}: {
  items: readonly OrderItem[];
  className?: string;
  rowClassName: string;
  qtyClassName: string;
}) {
  return (
    <ul className={className}>
      {items.map((item, i) => (
        <li key={i} className={`flex ${rowClassName}`}>
          <span className={`shrink-0 tabular-nums ${qtyClassName}`}>{item.qty}×</span>
          <span className="min-w-0 break-words">{item.name}</span>
        </li>
      ))}
    </ul>
  );
}
