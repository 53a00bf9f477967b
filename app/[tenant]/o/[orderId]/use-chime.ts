"use client";

import { useCallback, useEffect, useRef, useState } from "react";

const CHIME_URL = "/sounds/chime.wav";
const PREF_KEY = "nextup.customer.sound";

export type SoundPref = "on" | "off" | null;

export interface Chime {
  /** What the customer chose on this phone (null: not asked yet). */
  pref: SoundPref;
  /** The last chime was refused by the browser (no tap on the page yet). */
  blocked: boolean;
  /** From a tap: plays the chime once (which unlocks audio) and remembers "on". */
  turnOn: () => void;
  turnOff: () => void;
  play: () => void;
}

/**
 * The ready chime. Phones play sound only after a tap on the page, so the customer turns
 * it on with a tap (remembered on the phone); after a reload the first tap anywhere
 * unlocks it again silently.
 */
export function useChime(): Chime {
  const audio = useRef<HTMLAudioElement | null>(null);
  const [pref, setPref] = useState<SoundPref>(null);
  const [blocked, setBlocked] = useState(false);
  const element = () => (audio.current ??= new Audio(CHIME_URL));

  useEffect(() => {
    const saved = localStorage.getItem(PREF_KEY);
    if (saved === "on" || saved === "off") setPref(saved);
  }, []);

  useEffect(() => {
    if (pref !== "on") return;
    const unlock = () => {
      const a = element();
      a.muted = true;
      a.play().then(
        () => {
          a.pause();
          a.currentTime = 0;
          a.muted = false;
        },
        () => (a.muted = false),
      );
    };
    window.addEventListener("pointerdown", unlock, { once: true });
    return () => window.removeEventListener("pointerdown", unlock);
  }, [pref]);

  const play = useCallback(() => {
    if (pref === "off") return;
    const a = element();
    a.muted = false;
    a.currentTime = 0;
    a.play().then(
      () => setBlocked(false),
      () => setBlocked(true),
    );
  }, [pref]);

  const remember = (p: "on" | "off") => {
    setPref(p);
    try {
      localStorage.setItem(PREF_KEY, p);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
  };

  return {
    pref,
    blocked,
    play,
    turnOn: () => {
      remember("on");
      setBlocked(false);
      const a = element();
      a.muted = false;
      a.currentTime = 0;
      a.play().catch(() => setBlocked(true));
    },
    turnOff: () => remember("off"),
  };
}
