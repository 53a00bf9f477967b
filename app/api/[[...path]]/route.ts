import { AppError } from "@/lib/core/errors";
import { api } from "@/lib/edges/http/api.server";

/** Any /api path no other route serves: a 404 in the error contract, not the HTML page. */
const notFound = api<{ path?: string[] }>({ query: "any", body: "any" }, async (req) => {
  throw new AppError("NOT_FOUND", {
    message: `No API route for ${req.method} ${new URL(req.url).pathname}`,
    userMessage: "No such API endpoint (see docs/api.md).",
  });
});

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
