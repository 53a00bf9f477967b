/**
 * The dining-room board in Chromium at TV size: it calls numbers (chime, then the number
 * said in the screen's language, one after another), falls back to the eSpeak NG clip when
 * the device has no voice, calls again on the kitchen's request, lets ready numbers go by
 * themselves, and keeps every open order across a new shift without ever showing one number
 * twice (a new shift skips the numbers still open, decision 0027). Sound is recorded, not played:
 * speechSynthesis and HTMLMediaElement.play are replaced before the page loads.
 */
import type { APIResponse, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { insertSeries, type TestTenant } from "../support/tenants";

test.use({ viewport: { width: 1920, height: 1080 } });

type Sound = { kind: "play"; src: string } | { kind: "say"; text: string; lang: string; voice: string | null } | { kind: "cancel" };

/** Runs in the page before its scripts: records sound instead of making it. */
function installSoundRecorder(opts: { voices: { name: string; lang: string }[]; blocked?: boolean }) {
  const log: unknown[] = [];
  (window as unknown as { __sound: unknown[] }).__sound = log;
  HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
    log.push({ kind: "play", src: new URL(this.currentSrc || this.src).pathname });
    // Chrome's answer to sound without a tap (autoplay policy).
    if (opts.blocked) return Promise.reject(new DOMException("play() failed because the user didn't interact with the document first.", "NotAllowedError"));
    setTimeout(() => this.dispatchEvent(new Event("ended")), 20);
    return Promise.resolve();
  };
  const voices = opts.voices.map((v) => ({ ...v, default: false, localService: true, voiceURI: v.name }));
  class RecordedUtterance extends EventTarget {
    text: string;
    lang = "";
    voice: { name: string } | null = null;
    volume = 1;
    rate = 1;
    pitch = 1;
    onend: ((e: Event) => void) | null = null;
    onerror: ((e: Event) => void) | null = null;
    constructor(text = "") {
      super();
      this.text = text;
    }
  }
  (window as unknown as { SpeechSynthesisUtterance: unknown }).SpeechSynthesisUtterance = RecordedUtterance;
  const synth = window.speechSynthesis;
  synth.getVoices = () => voices;
  synth.cancel = () => void log.push({ kind: "cancel" });
  synth.speak = (u: SpeechSynthesisUtterance) => {
    const r = u as unknown as RecordedUtterance;
    log.push({ kind: "say", text: r.text, lang: r.lang, voice: r.voice?.name ?? null });
    setTimeout(() => r.onend?.(new Event("end")), 20);
  };
}

const DEVICE_VOICES = [
  { name: "Test US English", lang: "en-US" },
  { name: "Test Mandarin", lang: "zh-CN" },
];

async function openBoard(page: Page, t: TestTenant, opts: { lang?: "en" | "zh-CN"; voices?: { name: string; lang: string }[]; blocked?: boolean } = {}) {
  await page.addInitScript(installSoundRecorder, { voices: opts.voices ?? DEVICE_VOICES, blocked: opts.blocked });
  await page.goto(`/${t.slug}/board?lang=${opts.lang ?? "en"}`);
  // Live: events from here on reach the board.
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "live");
}

/** What was said or played, without the silent utterance that unlocks speech on the tap. */
async function sounds(page: Page): Promise<Sound[]> {
  const all = await page.evaluate(() => (window as unknown as { __sound: Sound[] }).__sound);
  return all.filter((s) => !(s.kind === "say" && !s.text.trim()));
}

/** Only what was said and played (cancels left out), as short strings. */
async function heard(page: Page): Promise<string[]> {
  return (await sounds(page)).filter((s) => s.kind !== "cancel").map((s) => (s.kind === "play" ? `play ${s.src}` : `say ${s.text} [${s.lang}]`));
}

async function enableSound(page: Page, name = "Enable sound") {
  await page.getByRole("button", { name, exact: true }).click();
  await expect(page.getByRole("button", { name, exact: true })).toHaveCount(0);
  // The tap plays the chime once, so whoever tapped hears that it works.
  await expect.poll(() => heard(page)).toEqual(["play /sounds/chime.wav"]);
  await page.evaluate(() => ((window as unknown as { __sound: unknown[] }).__sound.length = 0));
}

async function api(page: Page, method: string, path: string, key: string, body?: unknown) {
  const res = await page.request.fetch(path, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    data: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
  return (await res.json()) as { id: string; number: number };
}

const place = (page: Page, t: TestTenant, series?: string) =>
  api(page, "POST", `/api/v1/orgs/${t.slug}/orders`, t.apiKeys.cashier, { items: [{ name: "Noodles", qty: 1 }], ...(series ? { series } : {}) }) as Promise<{
    id: string;
    number: number;
    display: string;
  }>;
const mark = (page: Page, t: TestTenant, id: string, status: string) =>
  api(page, "POST", `/api/v1/orgs/${t.slug}/orders/${id}/status`, t.apiKeys.kitchen, { status });
const column = (page: Page, kind: "preparing" | "ready") => page.getByTestId(kind);
const numberIn = (page: Page, kind: "preparing" | "ready", n: number) => column(page, kind).locator(`[data-testid=board-number][data-number="${n}"]`);

/**
 * GET a clip the board has just asked for. The board's own <audio> may still be rendering it
 * from this same address (one render at a time per address: a 429 "retry in 1 s"), so ask
 * until it is not refused for that.
 */
async function fetchClip(page: Page, path: string): Promise<APIResponse> {
  let res: APIResponse | undefined;
  await expect.poll(async () => (res = await page.request.get(path)).status()).not.toBe(429);
  return res!;
}

async function shot(page: Page, name: string, opts: { still?: boolean } = {}) {
  // still: the highlight's end state rather than a frame of its flash.
  await page.screenshot({ path: `test-results/screenshots/board-${name}.png`, ...(opts.still ? { animations: "disabled" as const } : {}) });
}

test("a number that becomes ready is chimed, then said in English with the device's English voice", async ({ page, newTenant }) => {
  const t = await newTenant({ name: "Golden Wok" });
  await openBoard(page, t);
  await expect(page.getByRole("heading", { name: /^Preparing/ })).toBeVisible();
  await expect(page.getByRole("heading", { name: /^Ready/ })).toBeVisible();
  await shot(page, "idle-en");

  await enableSound(page);
  await expect(page.getByTestId("voice-name")).toHaveText("Voice: Test US English (this device)");
  await expect(page.getByRole("button", { name: "Chime" })).toHaveAttribute("aria-pressed", "true");

  const order = await place(page, t);
  await expect(numberIn(page, "preparing", order.number)).toBeVisible();
  // Appearing under Preparing calls nobody.
  expect(await heard(page)).toEqual([]);

  await mark(page, t, order.id, "READY");
  await expect(numberIn(page, "ready", order.number)).toBeVisible();
  await expect.poll(() => heard(page)).toEqual(["play /sounds/chime.wav", "say Number one [en-US]"]);
  const said = (await sounds(page)).find((s) => s.kind === "say");
  expect(said).toMatchObject({ voice: "Test US English" });
  // speechSynthesis.cancel() right before the utterance (Chrome stalls after long runs otherwise).
  const log = await sounds(page);
  expect(log[log.findIndex((s) => s.kind === "say") - 1]).toEqual({ kind: "cancel" });
  await shot(page, "called-en");

  // The kitchen's "Call again" (REST): said again.
  await api(page, "POST", `/api/v1/orgs/${t.slug}/orders/${order.id}/call`, t.apiKeys.kitchen);
  await expect.poll(() => heard(page)).toEqual(["play /sounds/chime.wav", "say Number one [en-US]", "play /sounds/chime.wav", "say Number one [en-US]"]);

  // Sound enabled is remembered on the device: after a reload no tap is needed.
  await page.reload();
  await expect(page.getByTestId("voice-name")).toBeVisible();
  await expect(page.getByRole("button", { name: "Enable sound" })).toHaveCount(0);
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "live");
  // Numbers already ready at first render are not called again; the next one is.
  await expect(numberIn(page, "ready", order.number)).toBeVisible();
  const next = await place(page, t);
  await mark(page, t, next.id, "READY");
  await expect.poll(() => heard(page)).toEqual(["play /sounds/chime.wav", "say Number two [en-US]"]);
});

test("on a board in Chinese the number is said in Chinese with lang zh-CN", async ({ page, newTenant }) => {
  const t = await newTenant({ name: "金龙面馆" });
  await openBoard(page, t, { lang: "zh-CN" });
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(page.getByRole("heading", { name: /^制作中/ })).toBeVisible();
  await expect(page.getByRole("heading", { name: /^请取餐/ })).toBeVisible();
  await expect(page.getByText("暂无可取餐的号码")).toBeVisible();
  await shot(page, "idle-zh-CN");

  await enableSound(page, "开启声音");
  await expect(page.getByTestId("voice-name")).toHaveText("语音：Test Mandarin（本机）");
  const order = await place(page, t);
  await mark(page, t, order.id, "READY");
  await expect.poll(() => heard(page)).toEqual(["play /sounds/chime.wav", "say 一号 [zh-CN]"]);
  await shot(page, "called-zh-CN");
});

test('a device that remembered sound but whose browser still blocks it shows "Enable sound" again', async ({ page, newTenant }) => {
  const t = await newTenant();
  await page.addInitScript(() => window.localStorage.setItem("nextup.board.sound", JSON.stringify({ enabled: true, chime: true, voice: true })));
  await openBoard(page, t, { blocked: true });
  // Remembered: no button at first.
  await expect(page.getByTestId("voice-name")).toBeVisible();
  await expect(page.getByRole("button", { name: "Enable sound" })).toHaveCount(0);
  const order = await place(page, t);
  await mark(page, t, order.id, "READY");
  // The chime was refused: the button is back, and the refused call did not go on to speak.
  await expect(page.getByRole("button", { name: "Enable sound", exact: true })).toBeVisible();
  expect(await heard(page)).toEqual(["play /sounds/chime.wav"]);
});

test("two numbers ready at once are both said, one after the other; switching the voice off leaves the chime", async ({ page, newTenant }) => {
  const t = await newTenant();
  await openBoard(page, t);
  await enableSound(page);
  const a = await place(page, t);
  const b = await place(page, t);
  await mark(page, t, a.id, "READY");
  await mark(page, t, b.id, "READY");
  await expect.poll(() => heard(page)).toEqual(["play /sounds/chime.wav", "say Number one [en-US]", "play /sounds/chime.wav", "say Number two [en-US]"]);

  await page.getByRole("button", { name: "Voice", exact: true }).click();
  await expect(page.getByRole("button", { name: "Voice", exact: true })).toHaveAttribute("aria-pressed", "false");
  const c = await place(page, t);
  await mark(page, t, c.id, "READY");
  await expect(numberIn(page, "ready", c.number)).toBeVisible();
  await expect.poll(async () => (await heard(page)).slice(4)).toEqual(["play /sounds/chime.wav"]);
});

test("with no device voice the board plays the built-in eSpeak NG clip and says so", async ({ page, newTenant }) => {
  const t = await newTenant();
  await openBoard(page, t, { voices: [] });
  await enableSound(page);
  await expect(page.getByTestId("voice-name")).toHaveText("Voice: eSpeak NG (built in)");
  await shot(page, "sound-espeak-en");
  const order = await place(page, t);
  await mark(page, t, order.id, "READY");
  const clipPath = `/api/v1/orgs/${t.slug}/voice/en/${order.number}.wav`;
  await expect.poll(() => heard(page)).toEqual(["play /sounds/chime.wav", `play ${clipPath}`]);
  // The clip the board asked for is real audio.
  const clip = await fetchClip(page, clipPath);
  expect(clip.status()).toBe(200);
  expect(clip.headers()["content-type"]).toBe("audio/wav");
  expect((await clip.body()).subarray(0, 4).toString("latin1")).toBe("RIFF");
});

test("a ready number leaves the board by itself readyClearMinutes after it became ready", async ({ page, newTenant }) => {
  const t = await newTenant({ floor: { readyClearMinutes: 1 } });
  await page.clock.install();
  await openBoard(page, t);
  const order = await place(page, t);
  await mark(page, t, order.id, "READY");
  await expect(numberIn(page, "ready", order.number)).toBeVisible();
  await page.clock.fastForward("00:30");
  await expect(numberIn(page, "ready", order.number)).toBeVisible();
  await page.clock.fastForward("00:45");
  await expect(numberIn(page, "ready", order.number)).toHaveCount(0);
  await expect(column(page, "ready").getByText("Nothing ready yet")).toBeVisible();
});

/** The tile showing `display` ("K1") in a column. */
const tileIn = (page: Page, kind: "preparing" | "ready", display: string) =>
  column(page, kind).locator(`[data-testid=board-number][data-display="${display}"]`);

/** Tiles whose text is wider than the tile (cut off or spilling over its border). */
const overflowing = (page: Page) =>
  page.getByTestId("board-number").evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.getAttribute("data-display")));

test("numbers of series with a prefix: the tiles show K1 and D100 whole; a K number is said letter first by the device, or played as its eSpeak clip (K2.wav)", async ({
  page,
  newTenant,
}) => {
  const t = await newTenant({ name: "Golden Wok" });
  // Before anything reads the new restaurant: a node reads its series with it.
  const url = process.env.E2E_DATABASE_URL!;
  await insertSeries(url, t.id, { name: "Kiosk", prefix: "K", first: 1, last: 99 });
  await insertSeries(url, t.id, { name: "Delivery", prefix: "D", first: 100, last: 199, channels: ["delivery"] });
  await openBoard(page, t);
  await enableSound(page);

  const plain = await place(page, t);
  const k1 = await place(page, t, "Kiosk");
  const d100 = await api(page, "POST", `/api/v1/orgs/${t.slug}/orders`, t.apiKeys.cashier, { channel: "delivery", items: [{ name: "Rice", qty: 1 }] });
  const k2 = await place(page, t, "Kiosk");
  expect([plain.display, k1.display, (d100 as { display?: string }).display, k2.display]).toEqual(["1", "K1", "D100", "K2"]);
  for (const shown of ["1", "K1", "D100", "K2"]) await expect(tileIn(page, "preparing", shown)).toHaveText(shown);
  // The keys tell 1 and K1 apart (the board would drop one of two orders with one key).
  await expect(column(page, "preparing").getByTestId("board-number")).toHaveCount(4);

  await mark(page, t, k1.id, "READY");
  await expect(tileIn(page, "ready", "K1")).toHaveText("K1");
  await expect(tileIn(page, "preparing", "K1")).toHaveCount(0);
  await expect(tileIn(page, "preparing", "1")).toBeVisible();
  await expect.poll(() => heard(page)).toEqual(["play /sounds/chime.wav", "say Number K, one [en-US]"]);
  await mark(page, t, d100.id, "READY");
  await expect(tileIn(page, "ready", "D100")).toBeVisible();
  await expect
    .poll(() => heard(page))
    .toEqual(["play /sounds/chime.wav", "say Number K, one [en-US]", "play /sounds/chime.wav", "say Number D, one hundred [en-US]"]);
  expect(await overflowing(page)).toEqual([]);
  await shot(page, "series-en", { still: true });

  await page.goto(`/${t.slug}/board?lang=zh-CN`);
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "live");
  await expect(tileIn(page, "ready", "K1")).toHaveText("K1");
  await page.evaluate(() => ((window as unknown as { __sound: unknown[] }).__sound.length = 0));
  await api(page, "POST", `/api/v1/orgs/${t.slug}/orders/${k1.id}/call`, t.apiKeys.kitchen);
  await expect.poll(() => heard(page)).toEqual(["play /sounds/chime.wav", "say K 一号 [zh-CN]"]);
  expect(await overflowing(page)).toEqual([]);
  await shot(page, "series-zh-CN", { still: true });

  // A board whose device has no voice plays the server's clip of what the tile shows.
  const bare = await page.context().newPage();
  await bare.addInitScript(installSoundRecorder, { voices: [] });
  await bare.goto(`/${t.slug}/board?lang=en`);
  await expect(bare.getByTestId("connection")).toHaveAttribute("data-state", "live");
  await expect(bare.getByTestId("voice-name")).toHaveText("Voice: eSpeak NG (built in)");
  await mark(page, t, k2.id, "READY");
  const clipPath = `/api/v1/orgs/${t.slug}/voice/en/K2.wav`;
  await expect.poll(() => heard(bare)).toEqual(["play /sounds/chime.wav", `play ${clipPath}`]);
  const clip = await fetchClip(page, clipPath);
  expect(clip.status()).toBe(200);
  expect(clip.headers()["content-type"]).toBe("audio/wav");
  // The clip of a number no open order shows is not made.
  expect((await page.request.get(`/api/v1/orgs/${t.slug}/voice/en/K9.wav`)).status()).toBe(404);
  await bare.close();
});

/** Runs in the page before its scripts: records every moment the board shows one number on two tiles. */
function recordTwins() {
  const w = window as unknown as { __twins: string[] };
  w.__twins = [];
  const look = () => {
    const seen = new Map<string, number>();
    // By what the tile shows: "K1" and "1" are different numbers (decision 0027).
    for (const el of document.querySelectorAll("[data-testid=board-number]")) {
      const n = el.getAttribute("data-display") ?? "";
      seen.set(n, (seen.get(n) ?? 0) + 1);
    }
    const twins = [...seen].filter(([, count]) => count > 1).map(([n]) => n);
    if (twins.length) w.__twins.push(twins.join(", "));
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-display"] });
}

const twinsSeen = (page: Page) => page.evaluate(() => (window as unknown as { __twins: string[] }).__twins);

test("a new shift hides no open order and hands none of their numbers out again: the board never shows one number twice", async ({ page, newTenant }) => {
  const t = await newTenant({ name: "Golden Wok" });
  await page.addInitScript(recordTwins);
  await openBoard(page, t);
  const a = await place(page, t);
  const b = await place(page, t);
  expect([a.number, b.number]).toEqual([1, 2]);
  await mark(page, t, b.id, "READY");
  await expect(numberIn(page, "ready", b.number)).toBeVisible();

  await api(page, "POST", `/api/v1/orgs/${t.slug}/shifts`, t.apiKeys.manager, { reason: "dinner" });
  // Shift 2 starts again at 1, but 1 and 2 are still on the board (a and b): it skips them.
  // (Before decision 0027 it got 1: two "1" tiles, told apart only by a small "S1".)
  const c = await place(page, t);
  expect(c.number).toBe(3);

  const earlierA = column(page, "preparing").locator(`[data-testid=board-number][data-number="${a.number}"][data-shift="1"]`);
  await expect(earlierA).toBeVisible();
  await expect(earlierA.getByTestId("shift-tag")).toHaveText("S1, shift 1");
  await expect(column(page, "preparing").locator(`[data-testid=board-number][data-number="${c.number}"][data-shift="2"]`).getByTestId("shift-tag")).toHaveCount(
    0,
  );
  await expect(numberIn(page, "ready", b.number).getByTestId("shift-tag")).toHaveText("S1, shift 1");
  await shot(page, "earlier-shift-en");

  await mark(page, t, a.id, "READY");
  await expect(column(page, "ready").locator(`[data-testid=board-number][data-number="${a.number}"][data-shift="1"]`)).toBeVisible();
  await expect(column(page, "ready").getByText("Nothing ready yet")).toHaveCount(0);
  await expect(column(page, "ready").getByTestId("board-number")).toHaveCount(2);
  expect(await twinsSeen(page)).toEqual([]);

  await page.goto(`/${t.slug}/board?lang=zh-CN`);
  await expect(column(page, "ready").locator(`[data-testid=board-number][data-number="${a.number}"]`).getByTestId("shift-tag")).toHaveText("班1, 第1班");
  await shot(page, "earlier-shift-zh-CN");
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "live");

  // Skipped numbers are not spent: once a and b are collected, the next shift gives 1 and 2
  // again, and skips 3, still open on c.
  for (const o of [a, b]) await mark(page, t, o.id, "COLLECTED");
  await api(page, "POST", `/api/v1/orgs/${t.slug}/shifts`, t.apiKeys.manager, { reason: "late" });
  const next = [await place(page, t), await place(page, t), await place(page, t)];
  expect(next.map((o) => o.number)).toEqual([1, 2, 4]);
  const tiles = column(page, "preparing").getByTestId("board-number");
  await expect(tiles).toHaveCount(4);
  expect((await tiles.evaluateAll((els) => els.map((el) => Number(el.getAttribute("data-number"))))).sort((x, y) => x - y)).toEqual([1, 2, 3, 4]);
  expect(await twinsSeen(page)).toEqual([]);
});

for (const variant of [
  { name: "", series: null, what: "36 numbers" },
  // Four characters a tile (decision 0027): a kiosk's series K300–K599.
  { name: "series-", series: { name: "Kiosk", prefix: "K", first: 300, last: 599 }, what: "36 numbers of four characters (K300…)" },
]) {
  test(`a busy board fits ${variant.what} at TV size (screenshots)`, async ({ page, newTenant }) => {
    const t = await newTenant({ name: "Golden Wok" });
    if (variant.series) await insertSeries(process.env.E2E_DATABASE_URL!, t.id, variant.series);
    const orders = [];
    for (let i = 0; i < 36; i++) orders.push(await place(page, t, variant.series?.name));
    if (variant.series) expect(orders.at(-1)!.display).toBe("K335");
    for (const o of orders.slice(0, 12)) await mark(page, t, o.id, "READY");
    for (const lang of ["en", "zh-CN"] as const) {
      await page.goto(`/${t.slug}/board?lang=${lang}`);
      await expect(column(page, "preparing").getByTestId("board-number")).toHaveCount(24);
      await expect(column(page, "ready").getByTestId("board-number")).toHaveCount(12);
      // Every number is inside its column (none cut off), and whole inside its tile.
      for (const kind of ["preparing", "ready"] as const) {
        const box = (await column(page, kind).boundingBox())!;
        const last = (await column(page, kind).getByTestId("board-number").last().boundingBox())!;
        expect(last.y + last.height).toBeLessThanOrEqual(box.y + box.height);
        expect(last.x + last.width).toBeLessThanOrEqual(box.x + box.width);
      }
      expect(await overflowing(page)).toEqual([]);
      await shot(page, `busy-${variant.name}${lang}`);
    }
  });
}

/** Runs in the page before its scripts: records layout shifts (as CLS counts them) and what moved. */
function recordLayoutShifts() {
  const w = window as unknown as { __shifts: { at: number; value: number; what: string }[]; __takeShifts: () => void };
  w.__shifts = [];
  const record = (entries: PerformanceEntry[]) => {
    for (const e of entries as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node?: Node }[] })[]) {
      if (e.hadRecentInput) continue;
      const what = (e.sources ?? []).map((s) => (s.node instanceof Element ? `${s.node.tagName}.${s.node.className}`.slice(0, 60) : String(s.node?.nodeName)));
      w.__shifts.push({ at: e.startTime, value: e.value, what: what.join(" | ") });
    }
  };
  const observer = new PerformanceObserver((list) => record(list.getEntries()));
  observer.observe({ type: "layout-shift", buffered: true });
  // Shifts of a frame already painted but not yet handed to the callback.
  w.__takeShifts = () => record(observer.takeRecords());
}

/** The page's layout shifts once it has settled: 30 painted frames in a row with no new shift (longer on a slow machine, not a fixed time). */
async function settledLayoutShifts(page: Page): Promise<{ at: number; value: number; what: string }[]> {
  return page.evaluate(async () => {
    const w = window as unknown as { __shifts: { at: number; value: number; what: string }[]; __takeShifts: () => void };
    const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
    for (let quiet = 0; quiet < 30;) {
      const before = w.__shifts.length;
      await frame();
      w.__takeShifts();
      quiet = w.__shifts.length === before ? quiet + 1 : 0;
    }
    return w.__shifts;
  });
}

/** CLS as web-vitals and Lighthouse define it: the largest session window (shifts < 1 s apart, at most 5 s long). */
function cumulativeLayoutShift(shifts: { at: number; value: number }[]): number {
  let worst = 0;
  let sum = 0;
  let first = -Infinity;
  let last = -Infinity;
  for (const s of shifts) {
    if (s.at - last > 1_000 || s.at - first > 5_000) {
      sum = 0;
      first = s.at;
    }
    sum += s.value;
    last = s.at;
    worst = Math.max(worst, sum);
  }
  return worst;
}

for (const size of [
  { width: 1920, height: 1080 },
  { width: 412, height: 823 },
]) {
  test(`the board does not shift as it loads (CLS ≤ 0.1) at ${size.width}×${size.height}`, async ({ browser, baseURL, newTenant, request }) => {
    const t = await newTenant({ name: "Steady Board" });
    const post = async () => {
      const res = await request.post(`/api/v1/orgs/${t.slug}/orders`, { headers: { authorization: `Bearer ${t.apiKeys.cashier}` }, data: {} });
      expect(res.status()).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push(await post());
    for (const id of ids.slice(0, 8)) {
      await request.post(`/api/v1/orgs/${t.slug}/orders/${id}/status`, {
        headers: { authorization: `Bearer ${t.apiKeys.kitchen}` },
        data: { status: "READY" },
      });
    }
    const ctx = await browser.newContext({ baseURL, viewport: size });
    const page = await ctx.newPage();
    await page.addInitScript(recordLayoutShifts);
    // A slow device, as Lighthouse's mobile run is: the first paint comes before the scripts measure the columns.
    const cdp = await ctx.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await page.goto(`/${t.slug}/board?lang=en`);
    await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "live");
    const shifts = await settledLayoutShifts(page);
    expect(cumulativeLayoutShift(shifts), shifts.map((x) => `${Math.round(x.at)} ms ${x.value.toFixed(4)} ${x.what}`).join("\n")).toBeLessThanOrEqual(0.1);

    await ctx.close();
  });
}
