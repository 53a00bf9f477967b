/** What the webhooks page hands its client components: an endpoint and its recent messages. */
import type { WebhookEventType } from "@/lib/core/webhooks/events";

export interface DeliveryRow {
  id: string;
  type: string;
  at: string;
  state: "delivered" | "gaveUp" | "retrying" | "waiting";
  nextAttempt: string | null;
  attempts: number;
  answer: string | null;
}

export interface EndpointRow {
  id: string;
  url: string;
  events: WebhookEventType[];
  created: string;
  createdBy: string | null;
  deliveries: DeliveryRow[];
}
