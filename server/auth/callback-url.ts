/**
 * The one rule for "where to go after sign-in": a page of this site only. The value is resolved
 * against PUBLIC_URL and must keep its origin; any control character (browsers strip tab, CR and
 * LF, so `/\t/evil.example` would become `//evil.example`) or backslash (read as a slash), raw or
 * percent-encoded, refuses it, as does a path that decodes to `//`.
 */
const hasUnsafeCharacter = (text: string) =>
  [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || c === "\\");

/** The same-origin path (with query and fragment) `value` names, or `fallback`. */
export const sameOriginPath = (
  value: string | undefined,
  options: { publicUrl: string; fallback: string },
) => {
  const { publicUrl, fallback } = options;
  const origin = new URL(publicUrl).origin;
  if (!value || hasUnsafeCharacter(value)) return fallback;
  if (!value.startsWith("/") && !value.startsWith(`${origin}/`)) return fallback;
  let url: URL;
  let path: string;
  try {
    url = new URL(value, `${origin}/`);
    path = decodeURIComponent(url.pathname);
  } catch {
    return fallback;
  }
  if (url.origin !== origin || hasUnsafeCharacter(path) || path.startsWith("//")) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
};
