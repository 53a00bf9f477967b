/** What screens and tickets show: `K12`, or `12` without a prefix (decision 0027). */
export const displayNumber = (prefix: string, number: number): string => `${prefix}${number}`;

/**
 * A board order as a node of the release before series sends it (a rolling upgrade): no
 * prefix, no display — its number had none. Screens read every order through this, so such
 * an event shows "12" rather than an empty tile.
 */
export function withDisplay<T extends { number: number; prefix?: string; display?: string }>(o: T): T & { prefix: string; display: string } {
  return typeof o.display === "string" && typeof o.prefix === "string"
    ? (o as T & { prefix: string; display: string })
    : { ...o, prefix: "", display: String(o.number) };
}
