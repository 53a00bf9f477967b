"use client";

/**
 * Calls numbers out loud on this board: wires the call queue to the chime, the device
 * voice or the eSpeak NG clip, and to what the device remembers (sound enabled, chime,
 * voice). `needsTap` is true until someone taps "Enable sound", and again whenever the
 * browser still refuses to play (e.g. after a reload without the autoplay permission).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { Locale } from "@/lib/core/locales";
import type { BoardOrder } from "@/lib/core/orders";
import { spokenNumber } from "@/lib/core/spoken-number";
import { BlockedError, CallQueue } from "./call-queue";
import { cancelSpeech, CHIME_URL, playMedia, speak, unlockSpeech, voiceClipUrl } from "./sound-players";
import { useSoundSettings, type SoundSettings } from "./sound-settings";
import { useVoiceEngine, type VoiceEngine } from "./use-voice-engine";
import { SPEECH_LANG } from "./voices";

export interface Caller {
  call(order: Pick<BoardOrder, "key" | "number" | "prefix" | "display">): void;
  enable: () => void;
  needsTap: boolean;
  settings: SoundSettings;
  update(patch: Partial<SoundSettings>): void;
  engine: VoiceEngine;
}

export function useCaller(slug: string, locale: Locale, fallbackVoice: boolean): Caller {
  const [settings, update] = useSoundSettings();
  const engine = useVoiceEngine(locale, fallbackVoice);
  const [blocked, setBlocked] = useState(false);
  // The queue lives as long as the board; it reads the latest of these on each call.
  const latest = useRef({ settings, engine, locale, slug });
  useEffect(() => {
    latest.current = { settings, engine, locale, slug };
  });
  const chime = useRef<HTMLAudioElement | null>(null);
  const chimeAudio = () => (chime.current ??= new Audio());

  const queue = useRef<CallQueue | null>(null);
  useEffect(() => {
    const q = new CallQueue({
      settings: () => {
        const { settings: s, engine: e } = latest.current;
        return { chime: s.chime, voice: s.voice && (e.kind === "device" || e.kind === "espeak") };
      },
      onBlocked: () => setBlocked(true),
      players: {
        chime: () => playMedia(chimeAudio(), CHIME_URL),
        cancelSpeech,
        say: (c) => {
          const { engine: e, locale: l, slug: s } = latest.current;
          if (e.kind === "device") return speak(c.text, SPEECH_LANG[l], e.voice);
          return playMedia(new Audio(), voiceClipUrl(s, l, c.display));
        },
      },
    });
    queue.current = q;
    return () => q.close();
  }, []);

  const needsTap = !settings.enabled || blocked;
  const call = useCallback(
    (order: Pick<BoardOrder, "key" | "number" | "prefix" | "display">) => {
      if (needsTap) return;
      // Said as shown: "K12" is "Number K, twelve", and its clip is K12.wav.
      queue.current?.add({ key: order.key, display: order.display, text: spokenNumber(order.number, latest.current.locale, order.prefix) });
    },
    [needsTap],
  );

  const enable = useCallback(() => {
    update({ enabled: true });
    setBlocked(false);
    // Played inside the tap, which is what unlocks audio; also tells whoever tapped that it works.
    unlockSpeech();
    playMedia(chimeAudio(), CHIME_URL).catch((e: unknown) => {
      if (e instanceof BlockedError) setBlocked(true);
    });
  }, [update]);

  return { call, enable, needsTap, settings, update, engine };
}
