/** Button looks of the kitchen screen: a strong visible focus ring; compact, for a rush's worth of tickets. */
const SHARED =
  "inline-flex items-center justify-center gap-2 rounded-xl font-bold focus:outline-none focus-visible:ring-4 focus-visible:ring-offset-2 focus-visible:ring-blue-500 disabled:cursor-wait disabled:opacity-60";
/** On a ticket and in the pickup column: 36 px (still well over the 24 px minimum target), room for four rows of tickets. */
const TIGHT = `${SHARED} min-h-9 px-2 py-1 text-base leading-tight`;

export const BUTTON = {
  ready: `${TIGHT} bg-emerald-700 text-white hover:bg-emerald-800`,
  collected: `${TIGHT} bg-blue-700 text-white hover:bg-blue-800`,
  secondary: `${TIGHT} border-2 border-slate-400 bg-white text-slate-900 hover:bg-slate-100`,
  cancel: `${TIGHT} border-2 border-red-300 bg-white text-red-800 hover:border-red-700 hover:bg-red-50`,
  danger: `${TIGHT} bg-red-700 text-white hover:bg-red-800`,
} as const;

/** True when the control was used from the keyboard: only then does focus move for the user (no surprise on-screen keyboard on a touch screen). */
export const usedKeyboard = (el: Element | null): boolean => !!el?.matches(":focus-visible");
