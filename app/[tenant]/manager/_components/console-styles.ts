/** The console forms' text fields and buttons (colours are added where each is used). */
export const INPUT = "w-full rounded-lg border-2 border-slate-400 px-4 py-3 text-xl focus:border-blue-700 focus:outline-none focus:ring-4 focus:ring-blue-200";
export const BUTTON = "rounded-xl px-5 py-3 text-lg font-bold focus:outline-none focus-visible:ring-4 disabled:cursor-wait disabled:opacity-60";
