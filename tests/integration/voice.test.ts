/**
 * The board's fallback voice over real HTTP: eSpeak NG renders a real WAV in its child
 * process, the second request for the same clip comes from the cache, and bad input is a
 * 400 of the error contract, never a 500.
 */
import { describe, expect, inject, it } from "vitest";
import { apiClient, expectApiError } from "../support/http";

const baseUrl = inject("baseUrl");
const call = apiClient(baseUrl);

async function clip(path: string) {
  const res = await fetch(new URL(path, baseUrl));
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Asserts a PCM WAV file: RIFF/WAVE header, a fmt and a data chunk, and enough samples for a spoken phrase. */
function expectWav(bytes: Buffer) {
  expect(bytes.subarray(0, 4).toString("latin1")).toBe("RIFF");
  expect(bytes.subarray(8, 12).toString("latin1")).toBe("WAVE");
  expect(bytes.subarray(12, 16).toString("latin1")).toBe("fmt ");
  expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
  const sampleRate = bytes.readUInt32LE(24);
  expect(sampleRate).toBe(22_050); // eSpeak NG's native rate
  // More than half a second of 16-bit mono audio: a word, not a click.
  expect(bytes.length).toBeGreaterThan(sampleRate);
}

describe("GET /api/v1/voice/{locale}/{number}.wav", () => {
  for (const [locale, number] of [
    ["en", 42],
    ["zh-CN", 42],
  ] as const) {
    it(`renders ${locale} ${number} as a WAV, then serves it from the cache`, async () => {
      const first = await clip(`/api/v1/voice/${locale}/${number}.wav`);
      expect(first.res.status).toBe(200);
      expect(first.res.headers.get("content-type")).toBe("audio/wav");
      expect(first.res.headers.get("cache-control")).toMatch(/max-age=31536000/);
      expect(first.res.headers.get("x-voice-cache")).toBe("miss");
      expectWav(first.bytes);

      const second = await clip(`/api/v1/voice/${locale}/${number}.wav`);
      expect(second.res.status).toBe(200);
      expect(second.res.headers.get("x-voice-cache")).toBe("hit");
      expect(second.bytes.equals(first.bytes)).toBe(true);
    });
  }

  it("says different things for different numbers and languages", async () => {
    const [en7, en8, zh7] = await Promise.all([clip("/api/v1/voice/en/7.wav"), clip("/api/v1/voice/en/8.wav"), clip("/api/v1/voice/zh-CN/7.wav")]);
    for (const c of [en7, en8, zh7]) expectWav(c.bytes);
    expect(en7.bytes.equals(en8.bytes)).toBe(false);
    expect(en7.bytes.equals(zh7.bytes)).toBe(false);
  });

  it("answers concurrent requests for one clip with one render (the rest wait for it or hit the cache)", async () => {
    const all = await Promise.all(Array.from({ length: 5 }, () => clip("/api/v1/voice/en/314.wav")));
    for (const c of all) {
      expect(c.res.status).toBe(200);
      expect(c.bytes.equals(all[0]!.bytes)).toBe(true);
    }
    const again = await clip("/api/v1/voice/en/314.wav");
    expect(again.res.headers.get("x-voice-cache")).toBe("hit");
  });

  it.each([
    ["an unknown language", "/api/v1/voice/fr/42.wav"],
    ["a language in the wrong case", "/api/v1/voice/zh-cn/42.wav"],
    ["a number that is not a number", "/api/v1/voice/en/forty.wav"],
    ["zero", "/api/v1/voice/en/0.wav"],
    ["a number too long", "/api/v1/voice/en/123456789.wav"],
    ["a negative number", "/api/v1/voice/en/-3.wav"],
    ["another extension", "/api/v1/voice/en/42.mp3"],
    ["no extension", "/api/v1/voice/en/42"],
    ["a text injection", "/api/v1/voice/en/%2D%2Dhelp.wav"],
  ])("400 BAD_INPUT for %s", async (_what, path) => {
    const err = expectApiError(await call("GET", path), 400, "BAD_INPUT");
    expect(err.message.length).toBeGreaterThan(5);
  });
});
