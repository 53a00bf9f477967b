"use client";

import { useCallback, useEffect, useState } from "react";
import { useTranslations } from "next-intl";
import { asService, SERVICES, type AskService, type Service } from "@/lib/core/orders";

const rememberedKey = (slug: string) => `nextup.kiosk.service.${slug}`;

function readRemembered(slug: string): Service | null {
  try {
    return asService(window.localStorage.getItem(rememberedKey(slug)));
  } catch {
    return null;
  }
}

/**
 * Eat in or take away for the order being taken. "ask": chosen anew for every order (none
 * after one is taken); "remember": this device's last choice comes back, kept per restaurant
 * (the restaurant's default on a device that never chose); "off": never asked, never sent.
 */
export function useServiceChoice(slug: string, ask: AskService, fallback: Service) {
  const [service, setService] = useState<Service | null>(null);
  const remembered = useCallback(() => readRemembered(slug) ?? fallback, [slug, fallback]);
  useEffect(() => {
    // After mount: the server's render has no storage. A draft being restored sets its own choice afterwards.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (ask === "remember") setService((now) => now ?? remembered());
  }, [ask, remembered]);

  const choose = useCallback(
    (next: Service | null) => {
      setService(next);
      if (ask !== "remember" || next === null) return;
      try {
        window.localStorage.setItem(rememberedKey(slug), next);
      } catch {
        // Private mode or a full storage: it is remembered as long as the page.
      }
    },
    [slug, ask],
  );

  /** The order is taken (or cleared): the next one asks again, or starts from this device's last choice. */
  const reset = useCallback(() => setService(ask === "remember" ? remembered() : null), [ask, remembered]);

  return { service: ask === "off" ? null : service, choose, reset };
}

/** The two big buttons (radios, sent as `service`); nothing at all when the restaurant does not ask. */
export function ServiceChoice({ ask, service, onChange }: { ask: AskService; service: Service | null; onChange: (s: Service) => void }) {
  const t = useTranslations("kiosk.service");
  const names = useTranslations("common.service");
  if (ask === "off") return null;
  return (
    <fieldset data-testid="service-choice">
      <legend className="mb-1 text-xl font-bold">{t("legend")}</legend>
      <div className="grid grid-cols-2 gap-2">
        {SERVICES.map((s) => (
          <label
            key={s}
            className={`flex min-h-16 cursor-pointer items-center justify-center rounded-xl border-2 px-3 text-center text-2xl font-extrabold has-[:focus-visible]:ring-4 has-[:focus-visible]:ring-blue-300 ${
              service === s ? "border-blue-800 bg-blue-700 text-white" : "border-blue-700 bg-blue-50 text-blue-950 hover:bg-blue-100"
            }`}
          >
            <input type="radio" name="service" value={s} checked={service === s} onChange={() => onChange(s)} className="sr-only" />
            {names(s)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
