/** Where to go after sign-in: only a path on this site (never another origin: no open redirect). */
export const safeCallbackUrl = (value: string | string[] | undefined, fallback = "/account") => {
  const url = Array.isArray(value) ? value[0] : value;
  return url && url.startsWith("/") && !url.startsWith("//") && !url.startsWith("/\\") ? url : fallback;
};
