import { AppError } from "@/server/errors";
import { errorResponse } from "@/server/http/respond";

export const dynamic = "force-dynamic";

/** Any other path under /api/v1 answers the JSON 404 of the shared error shape. */
const notFound = () => errorResponse(new AppError("not_found", { message: "No endpoint at this path; see /api/v1/openapi.json." }));
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
