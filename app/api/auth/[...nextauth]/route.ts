import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { authOptions } from "@/server/auth/next-auth";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ nextauth: string[] }> };

/** next-auth's sign-in, sign-out, session and CSRF endpoints, with options built at run time. */
const handler = (request: NextRequest, context: Context) => NextAuth(request, context as never, authOptions());

export { handler as GET, handler as POST };
