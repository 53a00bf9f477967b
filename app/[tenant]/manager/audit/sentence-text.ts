/** An audit sentence (lib/core/audit-sentences) in the screen's language, with next-intl. */
import type { Sentence, SentenceValue } from "@/lib/core/audit-sentences";

/** The managerAudit translator; its keys are built at run time, so it is called loosely. */
type Translator = { (key: never, values?: never): string; has(key: never): boolean };
type Loose = { (key: string, values?: Record<string, string | number>): string; has(key: string): boolean };

export function sentenceText(translator: Translator): (s: Sentence) => string {
  const t = translator as unknown as Loose;
  const word = (msg: string) => (t.has(`sentences.${msg}`) ? t(`sentences.${msg}`) : msg);
  const value = (v: SentenceValue): string | number =>
    typeof v === "string" || typeof v === "number"
      ? v
      : "msg" in v
        ? word(v.msg)
        : v.list.map((x) => (typeof x === "string" ? x : word(x.msg))).join(t("sentences.separator"));
  return (s) => {
    const values = Object.fromEntries(Object.entries(s.values).map(([k, v]) => [k, value(v)]));
    // A sentence this build does not know (a newer entry) still shows its facts.
    if (!t.has(`sentences.${s.key}`)) return Object.values(values).join(" · ");
    return t(`sentences.${s.key}`, values);
  };
}
