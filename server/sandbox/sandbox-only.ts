/** Sandbox helpers exist only in the sandbox environment; elsewhere they are not found. */
import { env } from "../platform/env";
import { AppError } from "../core/errors";

export const assertSandbox = () => {
  if (env().SERVICE_ENV !== "sandbox")
    throw new AppError("not_found", {
      message: "No endpoint at this path; see /api/v1/openapi.json.",
    });
};
