import { serve } from "inngest/next";
import { AppError, errorBody } from "@/server/core/errors";
import { inngest, isInngestServed } from "@/server/platform/jobs/client";
import { functions } from "@/server/edges/jobs/functions";

export const dynamic = "force-dynamic";

const served = serve({ client: inngest, functions });

type Handler = typeof served.GET;

/** Without Inngest the route is not there (isInngestServed): 404 with the service's error body. */
const whenServed =
  (handler: Handler): Handler =>
  async (...request) =>
    isInngestServed()
      ? handler(...request)
      : Response.json(
          errorBody(
            new AppError("not_found", {
              message:
                "Inngest is not configured here: timed work runs in the service's own sweep.",
            }),
          ),
          { status: 404 },
        );

export const GET = whenServed(served.GET);
export const POST = whenServed(served.POST);
export const PUT = whenServed(served.PUT);
