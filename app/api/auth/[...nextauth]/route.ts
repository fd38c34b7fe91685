import { NextRequest } from "next/server";
import NextAuth, { type NextAuthOptions } from "next-auth";
import { rememberLanguage } from "@/app/_i18n/remember-language";
import { authOptions } from "@/server/auth";
import { AppError } from "@/server/core/errors";
import { BodyTooLargeError, maxFormBytes, readCappedBytes } from "@/server/platform/http/read-body";
import { errorResponse } from "@/server/platform/http/respond";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ nextauth: string[] }> };

/**
 * The options, and on a successful sign-in the person's saved language copied into the `lang`
 * cookie (Next adds the cookies a route handler sets to its answer): pages then render in it.
 */
const options = (): NextAuthOptions => ({
  ...authOptions(),
  events: {
    signIn: ({ user }) => rememberLanguage((user as { language?: string | null }).language),
  },
});

/** next-auth's sign-in, sign-out, session and CSRF endpoints, with options built at run time. */
const handler = (request: NextRequest, context: Context) =>
  NextAuth(request, context as never, options());

/** POSTs carry small forms: next-auth reads the body whole, so it gets at most 16 KiB (413 beyond). */
const post = async (request: NextRequest, context: Context) => {
  let body: Uint8Array;
  try {
    body = await readCappedBytes(request, maxFormBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      return errorResponse(new AppError("payload_too_large", { message: error.message }));
    throw error;
  }
  return handler(
    new NextRequest(request.url, {
      method: "POST",
      headers: request.headers,
      body: body.byteLength ? (body as BodyInit) : undefined,
    }),
    context,
  );
};

export { handler as GET, post as POST };
