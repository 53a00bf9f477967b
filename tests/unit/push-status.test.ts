/** The console's line on customer notifications (app/[tenant]/manager/push-status.ts). */
import { describe, expect, it } from "vitest";
import { pushLine } from "@/app/[tenant]/manager/push-status";

describe("pushLine", () => {
  it("is off when the server's push is off, whatever it counted", () => {
    expect(pushLine({ enabled: false }, null)).toBe("off");
    expect(pushLine({ enabled: false }, { sent: 0, failed: 5 })).toBe("off");
  });

  it("is on with nothing sent yet, with no figures, or with successes among the failures", () => {
    expect(pushLine({ enabled: true }, { sent: 0, failed: 0 })).toBe("on");
    expect(pushLine({ enabled: true }, null)).toBe("on");
    expect(pushLine({ enabled: true }, { sent: 3, failed: 1 })).toBe("on");
  });

  it("is failing when the last hour's pushes all failed (a server without internet)", () => {
    expect(pushLine({ enabled: true }, { sent: 0, failed: 2 })).toBe("failing");
  });
});
