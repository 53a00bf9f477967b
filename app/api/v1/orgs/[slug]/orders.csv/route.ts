import { api } from "@/lib/edges/http/api.server";
import { authorizeManager, queryOf } from "@/lib/edges/http/reports.server";

/**
 * The orders of a date range as CSV, streamed a page of orders at a time. Takes a
 * manager API key or the manager's session (the console's download form).
 */
export const GET = api<{ slug: string }>({ query: { from: "one", to: "one" } }, async (req, { params, app }) => {
  const { tenant } = await authorizeManager(app, req, params.slug);
  const { filename, lines } = app.reports.exportCsv(tenant, queryOf(req, ["from", "to"]));
  const encoder = new TextEncoder();
  const iterator = lines[Symbol.asyncIterator]();
  // A byte-order mark first, so that Excel reads the UTF-8 (Chinese item names) right.
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode("\uFEFF"));
        }
        const { done, value } = await iterator.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      } catch (e) {
        app.log.error({ err: e instanceof Error ? e.message : String(e), tenant: tenant.slug }, "orders export failed mid-stream");
        controller.error(e);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    },
  });
});
