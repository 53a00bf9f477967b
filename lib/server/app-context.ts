/**
 * How route handlers and server actions reach the app built by server.ts. Next.js bundles
 * them apart from server.ts, so the app travels on globalThis. Import types only from
 * app.server.ts here: this module must not pull adapters into Next's bundle.
 */
import type { App } from "./app.server";

const holder = globalThis as unknown as { __nextupApp?: App };

export function setApp(app: App | undefined): void {
  holder.__nextupApp = app;
}

export function getApp(): App {
  const app = holder.__nextupApp;
  if (!app) throw new Error("The app is not initialised: start it with server.ts (npm run dev / npm start)");
  return app;
}
