// `npx tsx scripts/make-icons.ts`: renders app/icon.svg into the PNG icons the web app
// manifests name (public/icons/), with Debian's Chromium (CHROMIUM_PATH to use another).
// The maskable icon fills the square with the background and keeps the letter inside the
// central safe circle (40% radius), so launchers may crop it to any shape.
import { mkdirSync, readFileSync } from "node:fs";
import { chromium } from "playwright";

const svg = readFileSync(new URL("../app/icon.svg", import.meta.url), "utf8");
const out = new URL("../public/icons/", import.meta.url);
mkdirSync(out, { recursive: true });

/** The same artwork without the rounded corners, the letter scaled to the safe zone. */
const maskable = svg.replace(/rx="[^"]*"/, 'rx="0"').replace(/<text /, '<text transform="translate(32 32) scale(0.72) translate(-32 -32)" ');

const icons = [
  { file: "icon-192.png", size: 192, svg },
  { file: "icon-512.png", size: 512, svg },
  { file: "icon-maskable-512.png", size: 512, svg: maskable },
  { file: "apple-touch-icon.png", size: 180, svg: maskable },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const icon of icons) {
    await page.setViewportSize({ width: icon.size, height: icon.size });
    const sized = icon.svg.replace("<svg ", `<svg width="${icon.size}" height="${icon.size}" `);
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${sized}</body></html>`);
    await page.screenshot({ path: new URL(icon.file, out).pathname, omitBackground: true, clip: { x: 0, y: 0, width: icon.size, height: icon.size } });
    console.log(`public/icons/${icon.file} (${icon.size}×${icon.size})`);
  }
} finally {
  await browser.close();
}
