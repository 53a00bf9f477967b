/** A screen's device id (lib/auth/device.server.ts): random, and the only cookie value that becomes a scope. */
import { describe, expect, it } from "vitest";
import { isDeviceId, newDeviceId, screenScope } from "@/lib/auth/device.server";

const caller = { tenant: { id: "7d4c0000-0000-4000-8000-000000000000" }, client: "session:5f0c2a1e-0000-4000-8000-000000000001" };

describe("a screen's device", () => {
  it("gets a new random id of 128 bits each time", () => {
    const ids = new Set(Array.from({ length: 100 }, newDeviceId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(isDeviceId(id) && Buffer.from(id, "base64url").length).toBe(16);
  });

  it("scopes keys to the restaurant and device; anything else in the cookie falls back to the session", () => {
    const id = newDeviceId();
    expect(screenScope(caller, id)).toBe(`device:${caller.tenant.id}:${id}`);
    for (const other of [undefined, "", "another-tills-name", `${id}x`, `${id.slice(0, 21)}:`]) expect(screenScope(caller, other)).toBe(caller.client);
  });
});
