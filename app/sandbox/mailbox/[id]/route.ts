import { pageCaller } from "@/app/_trpc/server";
import { toAppError, errorResponse } from "@/server/platform/http/respond";
import { signInPath } from "@/server/auth";

export const dynamic = "force-dynamic";

/** One of the signed-in person's sandbox emails as the HTML they would see; anyone else's is 404. */
export const GET = async (_request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  try {
    const html = await (await pageCaller()).mailbox.html({ id });
    return new Response(html, {
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": "script-src 'none'",
      },
    });
  } catch (error) {
    const failure = toAppError(error);
    if (failure.code === "unauthorized") {
      return new Response(null, {
        status: 303,
        headers: { Location: signInPath(`/sandbox/mailbox/${encodeURIComponent(id)}`) },
      });
    }
    return errorResponse(failure);
  }
};
