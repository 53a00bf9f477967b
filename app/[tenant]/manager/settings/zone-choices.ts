/**
 * The time-zone list with each zone's UTC offset, computed once, on the server, at one
 * instant: a browser's time-zone data may differ from the server's (America/Inuvik is
 * UTC−07:00 in Node's and UTC−06:00 in a Chromium's), and a page whose list the browser
 * computed again would not match the server's HTML (a hydration error; decision 0047).
 */
export interface ZoneChoice {
  zone: string;
  /** "UTC+08:00" ("UTC" for GMT itself); "" where the runtime does not know the zone. */
  offset: string;
}

function offsetOf(zone: string, at: Date): string {
  try {
    const part = new Intl.DateTimeFormat("en-GB", { timeZone: zone, timeZoneName: "longOffset" }).formatToParts(at).find((p) => p.type === "timeZoneName");
    return (part?.value ?? "GMT").replace("GMT", "UTC");
  } catch {
    return "";
  }
}

/** Every zone of `zones`, and the saved one first if the list lacks it (an alias stays choosable). */
export function zoneChoices(zones: readonly string[], saved: string, at: Date): ZoneChoice[] {
  const all = zones.includes(saved) ? zones : [saved, ...zones];
  return all.map((zone) => ({ zone, offset: offsetOf(zone, at) }));
}

/** The list at this instant, and the instant (the page's other server-computed previews use the same one). */
export function zoneChoicesNow(zones: readonly string[], saved: string): { choices: ZoneChoice[]; now: number } {
  const now = Date.now();
  return { choices: zoneChoices(zones, saved, new Date(now)), now };
}
