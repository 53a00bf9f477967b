/**
 * Which of the device's voices says the board's numbers: one of exactly the screen's
 * language (en-US, zh-CN), else another region of it (en-GB; zh-TW before Cantonese
 * zh-HK), else none (the board then uses eSpeak NG from the server).
 */
import type { Locale } from "@/lib/core/locales";

export interface VoiceLike {
  name: string;
  lang: string;
  default: boolean;
  localService: boolean;
}

/** The BCP 47 tag an utterance is given for each screen language. */
export const SPEECH_LANG: Record<Locale, string> = { en: "en-US", "zh-CN": "zh-CN" };

/** Other regions, best first, when the exact one is missing. */
const NEAR: Record<Locale, string[]> = { en: ["en-gb", "en-au", "en-ca", "en-in", "en"], "zh-CN": ["zh-sg", "zh-tw", "zh", "cmn", "zh-hk"] };

const norm = (lang: string) => lang.replace(/_/g, "-").toLowerCase();

export function pickVoice<V extends VoiceLike>(voices: readonly V[], locale: Locale): V | null {
  const exact = norm(SPEECH_LANG[locale]);
  const primary = exact.split("-")[0]!;
  const rank = (v: V): number => {
    const lang = norm(v.lang);
    if (lang === exact) return 0;
    const near = NEAR[locale].findIndex((n) => lang === n || lang.startsWith(`${n}-`));
    if (near >= 0) return 1 + near;
    return lang.split("-")[0] === primary && primary !== "zh" ? 50 : Infinity;
  };
  let best: V | null = null;
  let bestRank = Infinity;
  for (const v of voices) {
    // Among equals, prefer the device's default voice, then one that works offline.
    const r = rank(v) - (v.default ? 0.2 : 0) - (v.localService ? 0.1 : 0);
    if (r < bestRank) {
      best = v;
      bestRank = r;
    }
  }
  return bestRank === Infinity ? null : best;
}
