import { describe, expect, it } from "vitest";
import { STATUS_OFFLINE_CAUSE, STATUS_PAPER, STATUS_PRINTER, isStatusByte, statusFromReplies } from "@/lib/core/printing/printer-status";

/** A valid reply byte with these extra bits set (fixed bits: 1 and 4 set). */
const ok = (bits = 0) => 0x12 | bits;
const all = { printer: ok(), offline: ok(), paper: ok() };

describe("status requests", () => {
  it("are DLE EOT 1, 2 and 4", () => {
    expect([...STATUS_PRINTER]).toEqual([0x10, 0x04, 0x01]);
    expect([...STATUS_OFFLINE_CAUSE]).toEqual([0x10, 0x04, 0x02]);
    expect([...STATUS_PAPER]).toEqual([0x10, 0x04, 0x04]);
  });
});

describe("isStatusByte", () => {
  it("needs bit 1 and 4 set, bit 0 and 7 clear", () => {
    expect(isStatusByte(0x12)).toBe(true);
    expect(isStatusByte(0x12 | 0x6c)).toBe(true);
    expect(isStatusByte(0x13)).toBe(false); // bit 0
    expect(isStatusByte(0x10)).toBe(false); // bit 1 clear
    expect(isStatusByte(0x02)).toBe(false); // bit 4 clear
    expect(isStatusByte(0x92)).toBe(false); // bit 7
    expect(isStatusByte(undefined)).toBe(false);
  });
});

describe("statusFromReplies", () => {
  it("all quiet → ok", () => expect(statusFromReplies(all)).toBe("ok"));

  it("a missing reply → unknown", () => {
    expect(statusFromReplies({})).toBe("unknown");
    expect(statusFromReplies({ ...all, printer: undefined })).toBe("unknown");
    expect(statusFromReplies({ ...all, offline: undefined })).toBe("unknown");
    expect(statusFromReplies({ ...all, paper: undefined })).toBe("unknown");
  });

  it("an invalid reply (fixed bits wrong) → unknown, even when another says paper out", () => {
    for (const bad of [0x00, 0x13, 0x10, 0x02, 0x92, 0xff]) {
      expect(statusFromReplies({ ...all, printer: bad }), bad.toString(16)).toBe("unknown");
      expect(statusFromReplies({ ...all, offline: bad })).toBe("unknown");
      expect(statusFromReplies({ ...all, paper: bad })).toBe("unknown");
    }
    expect(statusFromReplies({ ...all, paper: ok(0x60), printer: 0x00 })).toBe("unknown");
  });

  it("paper sensor: bits 5–6 → paperOut; bits 2–3 (near end) still ok", () => {
    expect(statusFromReplies({ ...all, paper: ok(0x60) })).toBe("paperOut");
    expect(statusFromReplies({ ...all, paper: ok(0x20) })).toBe("paperOut");
    expect(statusFromReplies({ ...all, paper: ok(0x40) })).toBe("paperOut");
    expect(statusFromReplies({ ...all, paper: ok(0x0c) })).toBe("ok");
    expect(statusFromReplies({ ...all, paper: ok(0x04) })).toBe("ok");
    expect(statusFromReplies({ ...all, paper: ok(0x08) })).toBe("ok");
  });

  it("offline cause: bit 2 cover open, bit 5 paper end, bit 6 error; bit 3 alone is nothing", () => {
    expect(statusFromReplies({ ...all, printer: ok(0x08), offline: ok(0x04) })).toBe("coverOpen");
    expect(statusFromReplies({ ...all, printer: ok(0x08), offline: ok(0x20) })).toBe("paperOut");
    expect(statusFromReplies({ ...all, printer: ok(0x08), offline: ok(0x40) })).toBe("offline");
    expect(statusFromReplies({ ...all, offline: ok(0x40) })).toBe("offline");
    expect(statusFromReplies({ ...all, offline: ok(0x08) })).toBe("ok"); // paper feed button: not a cause
  });

  it("printer status bit 3 → offline when no reply says why", () => {
    expect(statusFromReplies({ ...all, printer: ok(0x08) })).toBe("offline");
    expect(statusFromReplies({ ...all, printer: ok(0x04 | 0x20 | 0x40) })).toBe("ok"); // drawer, waiting for recovery, feed button
  });

  it("paper out beats cover open beats error", () => {
    expect(statusFromReplies({ printer: ok(0x08), offline: ok(0x04 | 0x40), paper: ok(0x60) })).toBe("paperOut");
    expect(statusFromReplies({ printer: ok(0x08), offline: ok(0x04 | 0x40), paper: ok() })).toBe("coverOpen");
  });
});
