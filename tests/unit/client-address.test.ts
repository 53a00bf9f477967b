import { describe, expect, it } from "vitest";
import { parseTrustProxy } from "@/lib/server/http/client-address.server";
import { limitKey } from "@/lib/server/http/client-address.server";

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

describe("the key a client address is limited under", () => {
  it("groups IPv6 by its /64 and keeps IPv4 (mapped or not) as it is", () => {
    expect(limitKey("203.0.113.7")).toBe("203.0.113.7");
    expect(limitKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(limitKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(limitKey("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(limitKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(limitKey("unknown")).toBe("unknown");
  });
});
