/**
 * Staff forms over plain HTTP, as a browser without JavaScript submits them: the page's
 * server-rendered <form> carries the server action's id in hidden fields, and a multipart
 * POST of those fields runs the action (Next.js' progressive enhancement). Lets
 * integration tests sign in and out on a real server without a browser.
 */

const decode = (v: string) =>
  v
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The hidden fields of the first <form> in `html` whose hidden fields satisfy `match` (and whose markup `withMarkup`, when given). */
export function hiddenFields(html: string, match: (fields: Record<string, string>) => boolean, withMarkup?: string): Record<string, string> {
  for (const form of html.match(/<form[\s\S]*?<\/form>/g) ?? []) {
    if (withMarkup !== undefined && !form.includes(withMarkup)) continue;
    const fields: Record<string, string> = {};
    for (const input of form.match(/<input[^>]*type="hidden"[^>]*>/g) ?? []) {
      const n = /name="([^"]*)"/.exec(input)?.[1];
      if (n !== undefined) fields[decode(n)] = decode(/value="([^"]*)"/.exec(input)?.[1] ?? "");
    }
    if (match(fields)) return fields;
  }
  throw new Error("no such form in the page");
}

export interface FormResult {
  status: number;
  location: string | null;
  /** The session cookie the response set ("" when it deleted it), or null. */
  sessionCookie: string | null;
  /** The whole Set-Cookie line of the session cookie (its attributes), or null. */
  sessionCookieLine: string | null;
  /** The whole Set-Cookie line of the device cookie (`nextup_device`, set at sign-in), or null. */
  deviceCookieLine: string | null;
  html: string;
}

/** A Set-Cookie line's value. */
export const cookieValue = (line: string): string => decodeURIComponent(line.slice(line.indexOf("=") + 1).split(";")[0]!);

export async function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<FormResult> {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  const res = await fetch(url, { method: "POST", body, headers, redirect: "manual" });
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith("nextup_session="));
  return {
    status: res.status,
    location: res.headers.get("location"),
    sessionCookie: setCookie === undefined ? null : cookieValue(setCookie),
    sessionCookieLine: setCookie ?? null,
    deviceCookieLine: res.headers.getSetCookie().find((c) => c.startsWith("nextup_device=")) ?? null,
    html: await res.text(),
  };
}

/** Signs in on `/{slug}/sign-in` as a browser without JavaScript would; `headers` go with both requests. */
export async function signInOverHttp(
  baseUrl: string,
  slug: string,
  role: "CASHIER" | "KITCHEN" | "MANAGER",
  code: string,
  headers: Record<string, string> = {},
): Promise<FormResult> {
  const page = await fetch(`${baseUrl}/${slug}/sign-in?lang=en`, { headers });
  const fields = hiddenFields(await page.text(), (f) => f.tenant === slug && "next" in f, 'name="code"');
  return postForm(`${baseUrl}/${slug}/sign-in?lang=en`, { ...fields, role, code }, headers);
}

/** Signs a person in on `/{slug}/sign-in` with their name (the id the Name list sends) and PIN (decision 0051). */
export async function signInWithPinOverHttp(
  baseUrl: string,
  slug: string,
  memberId: string,
  pin: string,
  headers: Record<string, string> = {},
): Promise<FormResult> {
  const page = await fetch(`${baseUrl}/${slug}/sign-in?lang=en`, { headers });
  const fields = hiddenFields(await page.text(), (f) => f.tenant === slug && "next" in f, 'name="member"');
  return postForm(`${baseUrl}/${slug}/sign-in?lang=en`, { ...fields, member: memberId, pin }, headers);
}

/** Presses "Sign out" on a staff page (`/{slug}/{screen}`) with the session `token`. */
export async function signOutOverHttp(baseUrl: string, slug: string, screen: string, token: string): Promise<FormResult> {
  const cookie = { cookie: `nextup_session=${token}` };
  const page = await fetch(`${baseUrl}/${slug}/${screen}?lang=en`, { headers: cookie, redirect: "manual" });
  if (page.status !== 200) throw new Error(`${screen} answered ${page.status}, not the signed-in page`);
  // The header's sign-out form: the restaurant and the action's id, nothing else.
  const fields = hiddenFields(
    await page.text(),
    (f) => f.tenant === slug && Object.keys(f).length === 2 && Object.keys(f).some((k) => k.startsWith("$ACTION_ID_")),
  );
  return postForm(`${baseUrl}/${slug}/${screen}?lang=en`, fields, cookie);
}

/** True when the staff page `/{slug}/{screen}` opens with the session `token`; false when it sends the visitor to sign in (anything else fails). */
export async function opensWith(baseUrl: string, slug: string, token: string, screen = "kitchen"): Promise<boolean> {
  const res = await fetch(`${baseUrl}/${slug}/${screen}`, { headers: { cookie: `nextup_session=${token}` }, redirect: "manual" });
  await res.body?.cancel();
  if (res.status === 200) return true;
  if (res.status !== 307 || !(res.headers.get("location") ?? "").includes(`/${slug}/sign-in`)) {
    throw new Error(`/${slug}/${screen} answered ${res.status} (${res.headers.get("location") ?? "no location"}), neither the page nor a way to sign in`);
  }
  return false;
}
