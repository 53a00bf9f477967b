/**
 * What the board says when it calls a number, written out in words so that every speech
 * engine reads it as one number ("Number forty-two", "四十二号"), never digit by digit. A
 * series' prefix (decision 0027) is said first, letter by letter: "Number K, twelve",
 * "K 十二号".
 */
import type { Locale } from "./locales";

const ONES = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

function englishBelowThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const parts: string[] = [];
  if (hundreds) parts.push(`${ONES[hundreds]} hundred`);
  if (rest) {
    const words = rest < 20 ? ONES[rest]! : `${TENS[Math.floor(rest / 10)]}${rest % 10 ? `-${ONES[rest % 10]}` : ""}`;
    parts.push(hundreds ? `and ${words}` : words);
  }
  return parts.join(" ");
}

/** 42 → "forty-two", 101 → "one hundred and one", 1000 → "one thousand" (0 ≤ n < 10⁹). */
export function englishWords(n: number): string {
  if (n === 0) return "zero";
  const groups: [number, string][] = [
    [1_000_000, "million"],
    [1_000, "thousand"],
  ];
  const parts: string[] = [];
  let rest = n;
  for (const [size, name] of groups) {
    const count = Math.floor(rest / size);
    if (count) parts.push(`${englishBelowThousand(count)} ${name}`);
    rest %= size;
  }
  if (rest) parts.push(rest < 100 && parts.length ? `and ${englishBelowThousand(rest)}` : englishBelowThousand(rest));
  return parts.join(" ");
}

const DIGITS = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
const UNITS = ["", "十", "百", "千"];

/** 0 < n < 10000 in Chinese, with 零 for inner zeros: 101 → 一百零一, 1010 → 一千零一十. */
function chineseBelowTenThousand(n: number, leading: boolean): string {
  const digits = String(n).padStart(4, "0").split("").map(Number);
  let out = "";
  let zero = false;
  let started = false;
  digits.forEach((d, i) => {
    const unit = UNITS[3 - i]!;
    if (d === 0) {
      if (started) zero = true;
      return;
    }
    if (zero || (!started && !leading && i > 0)) out += "零";
    zero = false;
    // 10–19 at the start are 十, 十一…, not 一十.
    out += d === 1 && unit === "十" && !started && leading ? unit : DIGITS[d]! + unit;
    started = true;
  });
  return out;
}

/** 42 → 四十二, 10 → 十, 110 → 一百一十, 10000 → 一万 (0 ≤ n < 10⁸). */
export function chineseNumeral(n: number): string {
  if (n === 0) return "零";
  const high = Math.floor(n / 10_000);
  const low = n % 10_000;
  if (!high) return chineseBelowTenThousand(low, true);
  return chineseBelowTenThousand(high, true) + "万" + (low ? chineseBelowTenThousand(low, false) : "");
}

/**
 * A prefix said letter by letter, never as a run: eSpeak NG's Mandarin voice says "CAT" as
 * one syllable and "BA" as "ba". Commas, not spaces, between the letters and after the last
 * one in English: eSpeak NG reads a lone "A" as the article ("Number A twelve" → "uh
 * twelve", "C A T" → "see uh tee"), "A," as the letter. In Chinese a single letter is
 * followed by a space, as in "K 十二号"; several take full-width commas ("C A T" loses its
 * A there too), read one letter at a time.
 */
function spokenLetters(prefix: string, locale: Locale): string {
  const letters = prefix.split("");
  return locale === "zh-CN" ? `${letters.join("，")} ` : `${letters.join(", ")}, `;
}

/**
 * The sentence the board speaks for a ready number: `prefix` is the series' letters ("" for
 * none, else 1–3 of A–Z, as the order stores it). Anything else is said as written.
 */
export function spokenNumber(n: number, locale: Locale, prefix = ""): string {
  if (!Number.isSafeInteger(n) || n < 0 || n >= 100_000_000 || !/^[A-Z]{0,3}$/.test(prefix)) return `${prefix}${n}`;
  const letters = prefix ? spokenLetters(prefix, locale) : "";
  return locale === "zh-CN" ? `${letters}${chineseNumeral(n)}号` : `Number ${letters}${englishWords(n)}`;
}
