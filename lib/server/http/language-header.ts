/**
 * How a request's language reaches Next.js: server.ts reads `?lang=` and the path before
 * Next sees the request (./language.server.ts) and passes them on in these
 * headers; lib/i18n/request.ts reads them. A client cannot set them: server.ts drops any
 * it sends.
 */
export const LOCALE_HEADER = "x-nextup-locale";
export const PATH_HEADER = "x-nextup-path";
/** Where a device remembers its language (a year; not a secret). */
export const LOCALE_COOKIE = "nextup-lang";
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 3600;
