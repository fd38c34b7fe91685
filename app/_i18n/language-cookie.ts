/** The cookie that carries a person's saved language ("en" | "fr") to pages rendered before we know who they are. */
export const languageCookie = "lang";

/** A year: the saved setting is the truth, the cookie only its copy in this browser. */
export const languageCookieOptions = {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  maxAge: 365 * 24 * 3600,
} as const;
