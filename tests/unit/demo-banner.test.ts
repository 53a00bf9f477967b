import { describe, expect, it } from "vitest";
import { demoBanner, type DemoBannerInput } from "@/lib/server/dev/demo-banner";

const input: DemoBannerInput = {
  tenant: { slug: "demo", name: "Demo Diner", timeZone: "Europe/Berlin", dayStartMinutes: 240, schedule: ["11:00", "17:00"] },
  codes: { manager: "demo-manager", cashier: "demo-cashier", kitchen: "demo-kitchen" },
  apiKeys: null,
};

describe("what npm run dev prints about the demo restaurant", () => {
  it("prints the restaurant's stored settings and the codes that still sign in", () => {
    const text = demoBanner(input);
    expect(text).toContain(`Demo restaurant "Demo Diner" (Europe/Berlin, day starts 04:00, scheduled shifts: 11:00, 17:00)`);
    expect(text).toContain("kiosk    sign-in code: demo-cashier");
    expect(text).toContain("kitchen  sign-in code: demo-kitchen");
    expect(text).toContain("manager  sign-in code: demo-manager");
    expect(text).not.toContain("API keys");
  });

  it("after a manager changed the time zone, day start, shifts and one code: prints those, and never the old code", () => {
    const text = demoBanner({
      ...input,
      tenant: { ...input.tenant, name: "Night Noodles", timeZone: "Asia/Tokyo", dayStartMinutes: 5 * 60 + 30, schedule: [] },
      codes: { ...input.codes, cashier: null },
    });
    expect(text).toContain(`Demo restaurant "Night Noodles" (Asia/Tokyo, day starts 05:30, scheduled shifts: none)`);
    expect(text).not.toContain("Europe/Berlin");
    expect(text).toContain("kiosk    sign-in code: changed (the demo code no longer works)");
    expect(text).not.toContain("demo-cashier");
    expect(text).toContain("kitchen  sign-in code: demo-kitchen");
  });

  it("prints the API keys of a demo created just now", () => {
    const apiKeys = { manager: "nxu_mgr_a", cashier: "nxu_csh_b", kitchen: "nxu_kit_c" };
    expect(demoBanner({ ...input, apiKeys })).toContain(`API keys (shown once): ${JSON.stringify(apiKeys)}`);
  });
});
