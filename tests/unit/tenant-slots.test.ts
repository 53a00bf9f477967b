/** A restaurant's share of a node's workers (lib/core/fair-share.ts TenantSlots). */
import { describe, expect, it } from "vitest";
import { TenantSlots } from "@/lib/core/fair-share";

describe("TenantSlots", () => {
  it("runs at most its share of one restaurant's work at once, another restaurant's beside it, and frees a slot when work ends or fails", async () => {
    const slots = new TenantSlots(2);
    const gates: (() => void)[] = [];
    const held = () => new Promise<void>((resolve) => gates.push(resolve));
    const first = slots.run("a", held);
    const second = slots.run("a", held);
    // A's third waits for a slot; B is not held up by A.
    expect(await slots.run("a", async () => {})).toBe(false);
    expect(await slots.run("b", async () => {})).toBe(true);
    gates.shift()!();
    expect(await first).toBe(true);
    expect(await slots.run("a", async () => {})).toBe(true);
    await expect(slots.run("a", async () => Promise.reject(new Error("endpoint down")))).rejects.toThrow("endpoint down");
    // The failed one gave its slot back: one still held, one free.
    const third = slots.run("a", held);
    expect(await slots.run("a", async () => {})).toBe(false);
    gates.splice(0).forEach((open) => open());
    expect([await second, await third]).toEqual([true, true]);
  });

  it("without a share, never refuses", async () => {
    const slots = new TenantSlots();
    const runs = await Promise.all(Array.from({ length: 50 }, () => slots.run("a", () => new Promise((r) => setTimeout(r, 1)))));
    expect(runs.every(Boolean)).toBe(true);
  });
});
