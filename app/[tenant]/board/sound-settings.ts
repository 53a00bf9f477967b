"use client";

/**
 * What this device remembers about the board's sound (localStorage): whether someone
 * enabled it, and whether the chime and the voice are on. A TV that reloads keeps it.
 */
import { useCallback, useEffect, useState } from "react";

export interface SoundSettings {
  enabled: boolean;
  chime: boolean;
  voice: boolean;
}

const KEY = "nextup.board.sound";
const DEFAULTS: SoundSettings = { enabled: false, chime: true, voice: true };

function read(): SoundSettings {
  try {
    const raw = JSON.parse(window.localStorage.getItem(KEY) ?? "{}") as Partial<Record<keyof SoundSettings, unknown>>;
    const flag = (k: keyof SoundSettings) => (typeof raw[k] === "boolean" ? raw[k] : DEFAULTS[k]);
    return { enabled: flag("enabled"), chime: flag("chime"), voice: flag("voice") };
  } catch {
    return DEFAULTS;
  }
}

export function useSoundSettings(): [SoundSettings, (patch: Partial<SoundSettings>) => void] {
  // Defaults on the server and the first render; the device's own after hydration.
  const [settings, setSettings] = useState<SoundSettings>(DEFAULTS);
  useEffect(() => setSettings(read()), []);
  const update = useCallback((patch: Partial<SoundSettings>) => {
    setSettings((s) => {
      const next = { ...s, ...patch };
      try {
        window.localStorage.setItem(KEY, JSON.stringify(next));
      } catch {
        // Private mode or full storage: works until the next reload.
      }
      return next;
    });
  }, []);
  return [settings, update];
}
