/** Button looks of the kitchen screen: big targets, a strong visible focus ring. */
const SHARED =
  "inline-flex items-center justify-center gap-2 rounded-xl font-bold focus:outline-none focus-visible:ring-4 focus-visible:ring-offset-2 focus-visible:ring-blue-500 disabled:cursor-wait disabled:opacity-60";
const BASE = `${SHARED} min-h-12 px-3 py-2 text-lg`;

export const BUTTON = {
  ready: `${BASE} bg-emerald-700 text-white hover:bg-emerald-800`,
  collected: `${BASE} bg-blue-700 text-white hover:bg-blue-800`,
  secondary: `${BASE} border-2 border-slate-400 bg-white text-slate-900 hover:bg-slate-100`,
  cancel: `${BASE} border-2 border-red-300 bg-white text-red-800 hover:border-red-700 hover:bg-red-50`,
  danger: `${BASE} bg-red-700 text-white hover:bg-red-800`,
  /** For rows of a list (Recently collected): still a comfortable 44 px target. */
  small: `${SHARED} min-h-11 px-3 text-base border-2 border-slate-400 bg-white text-slate-900 hover:bg-slate-100`,
} as const;

/** True when the control was used from the keyboard: only then does focus move for the user (no surprise on-screen keyboard on a touch screen). */
export const usedKeyboard = (el: Element | null): boolean => !!el?.matches(":focus-visible");
