/**
 * A staff screen's device: a random id in an HttpOnly cookie that sign-in sets once and
 * every later sign-in keeps, so a kiosk's idempotency key replays its order after the till
 * signs in again (decision 0037). 128 random bits: a device can claim only its own id, and
 * the id alone orders nothing (the action still needs a cashier's session).
 */
import { randomBytes } from "node:crypto";

export const DEVICE_COOKIE = "nextup_device";
/** The longest a browser keeps a cookie (RFC 6265bis caps Max-Age at 400 days). */
export const DEVICE_COOKIE_MAX_AGE = 400 * 24 * 3600;

const DEVICE_ID = /^[A-Za-z0-9_-]{22}$/;

export const newDeviceId = (): string => randomBytes(16).toString("base64url");

export const isDeviceId = (value: string | undefined): value is string => value !== undefined && DEVICE_ID.test(value);

/**
 * The idempotency scope of an order a signed-in screen places: its restaurant and device,
 * else — a screen signed in before its device had an id — its session (`caller.client`).
 */
export function screenScope(caller: { tenant: { id: string }; client: string }, device: string | undefined): string {
  return isDeviceId(device) ? `device:${caller.tenant.id}:${device}` : caller.client;
}
