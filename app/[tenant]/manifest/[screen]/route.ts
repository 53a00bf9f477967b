/**
 * The web app manifest of one restaurant's screen (names in kiosk.json "manifest"; GET /{tenant}/manifest/{board|kiosk|kitchen}):
 * installed on a TV or a tablet, it opens that restaurant's screen full-screen. The
 * generic /manifest.webmanifest (public/) would open the start page instead.
 */
import { getTranslations } from "next-intl/server";
import { getApp } from "@/lib/server/app-context";
import { MANIFEST_ICONS, manifestResponse } from "@/app/_lib/manifest-response";

const SCREENS = ["board", "kiosk", "kitchen"] as const;
type Screen = (typeof SCREENS)[number];

const isScreen = (s: string): s is Screen => (SCREENS as readonly string[]).includes(s);

export async function GET(_req: Request, { params }: { params: Promise<{ tenant: string; screen: string }> }) {
  const { tenant: slug, screen } = await params;
  const tenant = isScreen(screen) && slug.length <= 64 ? await getApp().tenants.find(slug) : null;
  if (!tenant || !isScreen(screen)) return Response.json({ error: { code: "NOT_FOUND", message: "No such screen" } }, { status: 404 });

  const t = await getTranslations("kiosk.manifest");
  const base = `/${tenant.slug}`;
  const manifest = {
    name: `${tenant.name} — ${t(screen)}`,
    short_name: t(screen),
    id: `${base}/${screen}`,
    start_url: `${base}/${screen}`,
    scope: `${base}/`,
    display: "fullscreen",
    display_override: ["fullscreen", "standalone"],
    orientation: screen === "board" ? "landscape" : "any",
    theme_color: "#0f172a",
    background_color: screen === "board" ? "#020617" : "#f8fafc",
    icons: MANIFEST_ICONS,
  };
  return manifestResponse(manifest);
}
