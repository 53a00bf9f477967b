"use client";

/** Last resort when even the root layout fails: plain HTML, no app styles. */
export default function GlobalError({ retry }: { error: unknown; retry: () => void }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", maxWidth: "36rem", margin: "4rem auto", padding: "0 1.25rem", color: "#0f172a" }}>
        <title>Something went wrong · Nextup</title>
        <h1 style={{ fontSize: "2rem" }}>Something went wrong</h1>
        <p role="alert" style={{ fontSize: "1.25rem" }}>
          Nextup could not load this screen. Try again in a moment. If it keeps happening, tell your manager.
        </p>
        <button type="button" onClick={() => retry()} style={{ fontSize: "1.25rem", padding: "0.75rem 1.5rem", marginTop: "1rem" }}>
          Try again
        </button>
      </body>
    </html>
  );
}
