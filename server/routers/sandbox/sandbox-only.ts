/** Sandbox helpers exist only in the sandbox environment; elsewhere they are not found. */
import { env } from "../../env";
import { AppError } from "../../errors";

export const assertSandbox = () => {
  if (env().SERVICE_ENV !== "sandbox")
    throw new AppError("not_found", {
      message: "No endpoint at this path; see /api/v1/openapi.json.",
    });
};
