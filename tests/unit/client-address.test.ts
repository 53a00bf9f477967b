import { describe, expect, it } from "vitest";
import { parseTrustProxy } from "@/lib/server/client-address.server";

describe("parseTrustProxy", () => {
  it("trusts nobody by default", () => {
    expect(parseTrustProxy(undefined)("127.0.0.1", 0)).toBe(false);
    expect(parseTrustProxy("false")("127.0.0.1", 0)).toBe(false);
  });
  it("trusts a number of hops, or the named addresses only", () => {
    const one = parseTrustProxy("1");
    expect([one("203.0.113.1", 0), one("203.0.113.1", 1)]).toEqual([true, false]);
    const named = parseTrustProxy("loopback, 10.0.0.0/8");
    expect([named("127.0.0.1", 0), named("10.1.2.3", 3), named("203.0.113.1", 0)]).toEqual([true, true, false]);
  });
});
