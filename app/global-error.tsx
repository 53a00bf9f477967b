"use client";

/** Last resort when even the root layout fails: plain HTML, no app styles, no messages: both languages at once. */
export default function GlobalError({ retry }: { error: unknown; retry: () => void }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", maxWidth: "36rem", margin: "4rem auto", padding: "0 1.25rem", color: "#0f172a" }}>
        <title>Something went wrong · 出错了 · Nextup</title>
        <h1 style={{ fontSize: "2rem" }}>Something went wrong</h1>
        <p role="alert" style={{ fontSize: "1.25rem" }}>
          Nextup could not load this screen. Try again in a moment. If it keeps happening, tell your manager.
        </p>
        <h2 lang="zh-CN" style={{ fontSize: "1.5rem" }}>
          出错了
        </h2>
        <p lang="zh-CN" style={{ fontSize: "1.25rem" }}>
          无法加载此页面，请稍后重试。如果持续出现，请告诉经理。
        </p>
        <button type="button" onClick={() => retry()} style={{ fontSize: "1.25rem", padding: "0.75rem 1.5rem", marginTop: "1rem" }}>
          Try again · 重试
        </button>
      </body>
    </html>
  );
}
