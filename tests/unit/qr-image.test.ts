import { describe, expect, it } from "vitest";
import { create } from "qrcode";
import { qrImage } from "@/app/[tenant]/kiosk/qr-image";

/** The dark modules an image draws: each `M x y h n` stroke paints n modules of row y − 0.5 − margin. */
function modulesOf(dataUrl: string, size: number): Uint8Array {
  const svg = Buffer.from(dataUrl.replace(/^data:image\/svg\+xml;base64,/, ""), "base64").toString("utf8");
  const d = /<path stroke="#000000" d="([^"]*)"/.exec(svg)![1]!;
  const out = new Uint8Array(size * size);
  for (const [, x, y, n] of d.matchAll(/M(\d+) ([\d.]+)h(\d+)/g)) {
    const row = Number(y) - 0.5 - 1;
    for (let col = Number(x) - 1; col < Number(x) - 1 + Number(n); col++) out[row * size + col] = 1;
  }
  return out;
}

describe("the kiosk's ticket QR code", () => {
  it("draws exactly the modules of the ticket's link, with a quiet zone, as a data: SVG", () => {
    for (const url of ["https://queue.example/bench/o/cmihx3k2b0001abcd1234efgh", "http://192.168.1.20:3000/%E5%BA%97/o/x"]) {
      const { size, data } = create(url, { errorCorrectionLevel: "M" }).modules;
      const image = qrImage(url);
      expect(image).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(Buffer.from(image.split(",")[1]!, "base64").toString()).toContain(`viewBox="0 0 ${size + 2} ${size + 2}"`);
      expect(modulesOf(image, size)).toEqual(Uint8Array.from(data, (b) => (b ? 1 : 0)));
    }
  });
});
