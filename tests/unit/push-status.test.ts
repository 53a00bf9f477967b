/** The console's line on customer notifications (app/[tenant]/manager/push-status.ts). */
import { describe, expect, it } from "vitest";
import { pushLine } from "@/app/[tenant]/manager/push-status";

describe("pushLine", () => {
  it("is off when the server's push is off, whatever it counted", () => {
    expect(pushLine({ enabled: false, contact: null })).toBe("off");
    expect(pushLine({ enabled: false, contact: null, recentFailed: 5 })).toBe("off");
  });

  it("is on with nothing sent yet, or with successes among the failures", () => {
    expect(pushLine({ enabled: true, contact: "mailto:ops@example.com" })).toBe("on");
    expect(pushLine({ enabled: true, contact: "mailto:ops@example.com", recentSent: 3, recentFailed: 1 })).toBe("on");
  });

  it("is failing when the recent pushes all failed (a server without internet)", () => {
    expect(pushLine({ enabled: true, contact: "mailto:ops@example.com", recentSent: 0, recentFailed: 2 })).toBe("failing");
    expect(pushLine({ enabled: true, contact: "mailto:ops@example.com", recentFailed: 1 })).toBe("failing");
  });
});
