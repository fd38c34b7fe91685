import { pageCaller } from "@/app/_trpc/server";
import { toAppError, errorResponse } from "@/server/http/respond";

export const dynamic = "force-dynamic";

/** One sandbox email as the HTML the person would see. */
export const GET = async (_request: Request, context: { params: Promise<{ id: string }> }) => {
  try {
    const html = await (await pageCaller()).mailbox.html({ id: (await context.params).id });
    return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": "script-src 'none'" } });
  } catch (error) {
    return errorResponse(toAppError(error));
  }
};
