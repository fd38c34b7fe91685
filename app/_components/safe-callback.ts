import { sameOriginPath } from "@/server/auth";
import { env } from "@/server/platform/env";

/** Where to go after sign-in: only a page of this site (never another origin: no open redirect). */
export const safeCallbackUrl = (
  value: string | string[] | undefined,
  fallback = "/account",
  publicUrl = env().PUBLIC_URL,
) => sameOriginPath(Array.isArray(value) ? value[0] : value, { publicUrl, fallback });
