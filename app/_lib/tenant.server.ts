/**
 * Server-only helpers shared by the tenant pages: resolve the restaurant from the URL
 * (unknown → 404, never a list of others) and read the request's origin and client IP.
 */
import { notFound } from "next/navigation";
import type { Tenant } from "@/lib/core/tenants";
import { getApp } from "@/lib/server/app-context";
import { CLIENT_HOST_HEADER, CLIENT_PROTO_HEADER, stampedClientAddress } from "@/lib/server/http/client-address.server";

/** The tenant named by the URL, or the 404 page. */
export async function tenantOr404(slug: string): Promise<Tenant> {
  const tenant = await getApp().tenants.find(slug);
  if (!tenant) notFound();
  return tenant;
}

const HOST_RE = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** "https" when PUBLIC_URL is https or a trusted proxy says so (stamped by server.ts; a client cannot set it). */
export function requestProto(h: Headers): "http" | "https" {
  return h.get(CLIENT_PROTO_HEADER) === "https" ? "https" : "http";
}

/** The absolute origin the browser used, e.g. "https://queue.example.com", for links printed on tickets. */
export function requestOrigin(h: Headers): string {
  const host = h.get(CLIENT_HOST_HEADER);
  return `${requestProto(h)}://${host && HOST_RE.test(host) ? host : "localhost"}`;
}

/** The client's address for rate limiting (lib/server/http/client-address.server.ts). */
export function clientIp(h: Headers): string {
  // Stamped by server.ts from the socket (or a trusted proxy); a client cannot set it.
  return stampedClientAddress(h);
}
