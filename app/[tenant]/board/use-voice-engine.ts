"use client";

/**
 * Which voice says the numbers on this device: a speechSynthesis voice of the screen's
 * language, else eSpeak NG clips from the server (when VOICE_FALLBACK is on), else none.
 * Browsers load their voices late, so it waits briefly for "voiceschanged".
 */
import { useEffect, useState } from "react";
import type { Locale } from "@/lib/core/locales";
import { pickVoice } from "./voices";

export type VoiceEngine = { kind: "pending" } | { kind: "device"; voice: SpeechSynthesisVoice } | { kind: "espeak" } | { kind: "none" };

/** How long to wait for the device's voice list before falling back. */
const VOICES_WAIT_MS = 1_500;

export function useVoiceEngine(locale: Locale, fallbackAvailable: boolean): VoiceEngine {
  const [engine, setEngine] = useState<VoiceEngine>({ kind: "pending" });
  useEffect(() => {
    const synth = "speechSynthesis" in window ? window.speechSynthesis : null;
    const fallback: VoiceEngine = fallbackAvailable ? { kind: "espeak" } : { kind: "none" };
    if (!synth) {
      setEngine(fallback);
      return;
    }
    const choose = (final: boolean) => {
      const voice = pickVoice(synth.getVoices(), locale);
      if (voice) setEngine({ kind: "device", voice });
      else if (final) setEngine(fallback);
      return voice !== null;
    };
    if (choose(false)) return;
    const onChange = () => void choose(false);
    synth.addEventListener("voiceschanged", onChange);
    const timer = setTimeout(() => choose(true), VOICES_WAIT_MS);
    return () => {
      clearTimeout(timer);
      synth.removeEventListener("voiceschanged", onChange);
    };
  }, [locale, fallbackAvailable]);
  return engine;
}
