/** The shopper sign-in page's path, returning to `callbackPath` (a path on this site) once signed in. */
export const signInPath = (callbackPath: string) =>
  `/sign-in?callbackUrl=${encodeURIComponent(callbackPath)}`;
