/**
 * Issue #36's voice finding at its own scale, with a stand-in for eSpeak NG: 40 addresses
 * cycling through the clips of numbers 1..150 in both languages (300 clips, more than the
 * 256 the LRU keeps) while a board calls. Decision 0036 already covers it, and this proves
 * it: the called numbers' clips are pinned, so the churn never evicts them (every board
 * request a cache hit), a number made ready mid-flood is rendered in the board's lane before
 * every stranger's waiting render and never refused, and strangers are bounded — one render
 * in flight per address, at most 8 waiting in all.
 */
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { isAppError } from "@/lib/core/errors";
import type { Locale } from "@/lib/core/locales";
import { VoiceRenderer, type VoiceClip } from "@/lib/adapters/voice/voice.server";

const script = path.join(process.cwd(), "tests/support/fake-espeak-process.mjs");
const n = (number: number) => ({ prefix: "", number });
const LOCALES: Locale[] = ["en", "zh-CN"];
let voice: VoiceRenderer | null = null;
afterEach(() => voice?.close());

it("40 addresses cycling 1..150 in two languages neither evict a board's clips nor keep a newly ready number waiting", async () => {
  const rendered = { board: 0, public: 0 };
  const refused = { busy: 0, address: 0 };
  voice = new VoiceRenderer({
    script,
    metrics: { rendered: (lane) => rendered[lane]++, refused: (reason) => refused[reason]++ },
  });
  const v = voice;
  const showing = Date.now() + 11 * 60_000; // readyClearMinutes (10) plus a minute
  // The board's number, called before the flood: rendered ahead in both languages.
  for (const locale of LOCALES) v.ahead(locale, n(42), showing);
  for (const locale of LOCALES) expect((await v.clip(locale, n(42))).cache).toMatch(/^(board|hit)$/);

  const strangers: ("ok" | "refused")[] = [];
  let stop = false;
  const address = async (a: number) => {
    // Each address one request at a time, through every (number, language) pair from its own start.
    for (let i = a * 7; !stop; i++) {
      const number = (i % 150) + 1;
      const locale = LOCALES[Math.floor(i / 150) % 2]!;
      try {
        await v.clip(locale, n(number), { owner: `127.0.1.${a + 1}` });
        strangers.push("ok");
      } catch (e) {
        if (!isAppError(e)) throw e;
        strangers.push("refused");
      }
    }
  };
  const flood = Array.from({ length: 40 }, (_, a) => address(a));

  // The board asks again each time strangers have had more clips rendered than the LRU
  // holds (a board asks every 2 s; the flood rendered ~10 clips a second): kept by
  // recency alone, its clips would be gone by then.
  const boardAnswers: VoiceClip[] = [];
  let newlyReady: VoiceClip[] = [];
  for (let round = 1; round <= 4; round++) {
    while (rendered.public < round * 300) await new Promise((r) => setTimeout(r, 1));
    for (const locale of LOCALES) boardAnswers.push(await v.clip(locale, n(42)));
    if (round === 2) {
      // Number 151 (no stranger asks for it) is made ready mid-flood: rendered ahead, asked at once.
      for (const locale of LOCALES) v.ahead(locale, n(151), showing);
      newlyReady = await Promise.all(LOCALES.map((locale) => v.clip(locale, n(151))));
    }
  }
  stop = true;
  await Promise.all(flood);

  // Never evicted, never rendered again for the board, never refused.
  expect(boardAnswers).toHaveLength(8);
  expect(new Set(boardAnswers.map((c) => c.cache))).toEqual(new Set(["hit"]));
  expect(newlyReady.map((c) => c.cache)).toEqual(["board", "board"]);
  expect(Buffer.from(newlyReady[1]!.wav).toString()).toMatch(/^cmn:/);
  // The board's lane rendered only the called numbers: 42 and 151, once per language.
  expect(rendered.board).toBe(4);
  // The LRU did churn (strangers' clips were rendered again and again), and strangers were refused past their bounds.
  expect(rendered.public).toBeGreaterThanOrEqual(1_200);
  expect(refused.busy).toBeGreaterThan(0);
  expect(strangers.filter((s) => s === "refused").length).toBe(refused.busy + refused.address);
});
