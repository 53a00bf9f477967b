/**
 * What the server prints once it listens (decision 0047): the mode it runs in and where its
 * data lives, the addresses a TV or phone on the network can open, and every restaurant's
 * screens at each of them; with no restaurant yet, how to create one.
 */
import type { NetworkInterfaceInfo } from "node:os";

type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

export interface BoxOrigin {
  origin: string;
  /** A loopback address: only a browser on the box itself reaches it. */
  local: boolean;
}

const SCREENS = [
  ["board", "board"],
  ["kiosk", "kiosk"],
  ["kitchen", "kitchen"],
  ["console", "manager"],
  ["sign-in", "sign-in"],
] as const;

/** Restaurants listed by name; a larger deployment is told how many more there are. */
export const LISTED_RESTAURANTS = 20;

/**
 * Every origin the server answers on (addresses are only read, never contacted): with HOST
 * 0.0.0.0 each IPv4 address, with `::` the IPv6 ones too (link-local ones need a zone no URL
 * carries), else HOST itself. The network's addresses first, the box's own (localhost) last.
 */
export function boxOrigins(host: string, port: number, interfaces: Interfaces): BoxOrigin[] {
  const withPort = (h: string) => `http://${h}${port === 80 ? "" : `:${port}`}`;
  const wildcard = host === "0.0.0.0" || host === "::";
  if (!wildcard) return [{ origin: withPort(host.includes(":") ? `[${host}]` : host), local: host === "localhost" || /^127\.|^::1$/.test(host) }];
  const found: BoxOrigin[] = [];
  for (const infos of Object.values(interfaces)) {
    for (const info of infos ?? []) {
      if (info.family === "IPv6" && (host !== "::" || info.address.toLowerCase().startsWith("fe80:"))) continue;
      if (info.internal) continue;
      found.push({ origin: withPort(info.family === "IPv6" ? `[${info.address}]` : info.address), local: false });
    }
  }
  found.push({ origin: withPort("localhost"), local: true });
  return found;
}

export interface StartBannerInput {
  mode: "development" | "one box" | "production";
  /** One line each: where the database, Redis and the session secret are. */
  database: string;
  redis: string;
  secret: string;
  /** Where scheduled backups go, or that they are off (decision 0049). */
  backups: string;
  /** What tickets' QR codes link to. */
  tickets: string;
  origins: BoxOrigin[];
  restaurants: { slug: string; name: string }[];
  /** All restaurants, listed or not. */
  total: number;
  /** The command that creates a restaurant here, e.g. `npm run org -- create …`. */
  createCommand: string;
  /** The demo restaurant still signs in with the codes the README prints. */
  demoCodesWork: boolean;
}

const MODE_LINE: Record<StartBannerInput["mode"], string> = {
  development: "Nextup in development (npm run dev: Next's dev badge and “Compiling…” are normal here; a shop runs `npm run build && npm start`)",
  "one box": "Nextup in production on one box (no DATABASE_URL: embedded PostgreSQL, data on this machine)",
  production: "Nextup in production",
};

export function startBanner(input: StartBannerInput): string {
  const lines = [
    "",
    `  ${MODE_LINE[input.mode]}`,
    `    database  ${input.database}`,
    `    Redis     ${input.redis}`,
    `    sessions  ${input.secret}`,
    `    backups   ${input.backups}`,
    `    tickets   ${input.tickets}`,
    "  Open from a TV, tablet or phone on this network at any of:",
    `    ${input.origins.map((o) => (o.local ? `${o.origin} (this machine only)` : o.origin)).join("   ")}`,
  ];
  if (input.demoCodesWork) {
    lines.push(
      "",
      "  Warning: the demo restaurant (/demo) still signs in with the codes printed in the README: anyone on this network can use it.",
      "  Change its codes in its console (Access), or do not use this data folder for a shop.",
    );
  }
  if (input.total === 0) {
    lines.push("", "  No restaurant yet. Create yours (its sign-in codes and API keys are printed once):", `    ${input.createCommand}`);
  }
  for (const r of input.restaurants) {
    lines.push("", `  "${r.name}" (/${r.slug})`);
    for (const [label, path] of SCREENS) lines.push(`    ${label.padEnd(8)} ${input.origins.map((o) => `${o.origin}/${r.slug}/${path}`).join("  ")}`);
  }
  if (input.total > input.restaurants.length)
    lines.push("", `  …and ${input.total - input.restaurants.length} more restaurants (the same screens under /<slug>/).`);
  lines.push("");
  return lines.join("\n") + "\n";
}
