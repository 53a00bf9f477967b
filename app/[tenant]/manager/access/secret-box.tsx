"use client";

import { useRef, useState } from "react";
import { useTranslations } from "next-intl";
import { BUTTON } from "../_components/console-styles";

/** Copies `text`: the Clipboard API where the page may use it (HTTPS, localhost), else the selection. */
async function copy(text: string, node: HTMLElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!node) return false;
    const range = document.createRange();
    range.selectNodeContents(node);
    const sel = window.getSelection();
    sel?.removeAllRanges();
    sel?.addRange(range);
    // Deprecated but still the one way on plain HTTP (a restaurant's LAN).
    return document.execCommand("copy");
  }
}

/** A code or key shown once: marked clearly, with a copy button (and selectable by hand). */
export function SecretBox({ heading, secret, testId }: { heading: string; secret: string; testId: string }) {
  const t = useTranslations("managerAccess");
  const code = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState<{ for: string; ok: boolean } | null>(null);
  const outcome = copied?.for === secret ? copied : null;
  return (
    <div role="status" className="space-y-2 rounded-xl border-4 border-amber-600 bg-amber-50 p-4 text-amber-950">
      <p className="text-lg font-bold">{heading}</p>
      <p className="font-semibold">{t("shownOnce")}</p>
      <div className="space-y-2">
        <code
          ref={code}
          data-testid={testId}
          className="block select-all break-all rounded-lg border-2 border-amber-700 bg-white px-2 py-2 font-mono text-lg text-slate-950"
        >
          {secret}
        </code>
        <button
          type="button"
          onClick={() => void copy(secret, code.current).then((ok) => setCopied({ for: secret, ok }))}
          className={`${BUTTON} bg-slate-900 text-white hover:bg-slate-700 focus-visible:ring-blue-300`}
        >
          {t("copy")}
        </button>
      </div>
      <p data-testid={`${testId}-copied`} className="text-base font-semibold">
        {outcome ? (outcome.ok ? t("copied") : t("copyFailed")) : null}
      </p>
    </div>
  );
}
