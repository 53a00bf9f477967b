/**
 * The app's few icons, from lucide-react (ISC; decision 0005): inline SVG, so they show on
 * TVs and kiosks without an emoji font. Decorative: the text next to them says the same.
 */
import {
  Ban,
  Bell,
  BellOff,
  Bike,
  CalendarClock,
  Check,
  CircleAlert,
  Clock,
  CreditCard,
  Ellipsis,
  Globe,
  Hourglass,
  ListOrdered,
  Phone,
  Plug,
  ShoppingBag,
  StickyNote,
  Store,
  Tag,
  TriangleAlert,
  Undo2,
  Volume2,
  X,
  type LucideIcon,
} from "lucide-react";
import type { OrderStatus } from "@/lib/core/orders";

const ICONS = {
  alert: CircleAlert,
  allDay: ListOrdered,
  ban: Ban,
  bell: Bell,
  bellOff: BellOff,
  check: Check,
  clock: Clock,
  cross: X,
  earlierDay: CalendarClock,
  hourglass: Hourglass,
  late: TriangleAlert,
  more: Ellipsis,
  note: StickyNote,
  speaker: Volume2,
  takeAway: ShoppingBag,
  undo: Undo2,
  // Order channels (the kiosk has none: most orders come from it).
  api: Plug,
  counter: Store,
  delivery: Bike,
  other: Tag,
  phone: Phone,
  pos: CreditCard,
  web: Globe,
} satisfies Record<string, LucideIcon>;

export type IconName = keyof typeof ICONS;

export function Icon({ name, className = "size-5" }: { name: IconName; className?: string }) {
  const Svg = ICONS[name];
  return <Svg aria-hidden="true" strokeWidth={2.4} className={`shrink-0 ${className}`} />;
}

const STATUS_ICON: Record<OrderStatus, LucideIcon> = { PLACED: Hourglass, READY: Bell, COLLECTED: ShoppingBag, CANCELLED: X };

/** An order status as an icon, beside its name. */
export function StatusIcon({ status, className = "size-5" }: { status: OrderStatus; className?: string }) {
  const Svg = STATUS_ICON[status];
  return <Svg aria-hidden="true" strokeWidth={2.4} className={`shrink-0 ${className}`} />;
}
