/**
 * Runs a procedure for a server action and turns the outcome into ActionState: AppError messages
 * and 422 fields go back to the form; anything unexpected is logged and shown as a generic message.
 * Next's own control flow (redirect(), notFound()) thrown inside `run` is passed on to Next, never
 * logged as a fault nor shown as "something went wrong" (issue 24, section 5).
 */
import "server-only";
import { unstable_rethrow } from "next/navigation";
import { toAppError } from "@/server/platform/http/respond";
import type { ActionState } from "./action-state";
import { fieldsByFormInput } from "@/server/core/zod-fields";

export const runAction = async <T>(
  run: () => Promise<T>,
  onSuccess: (result: T) => Omit<ActionState, "status">,
): Promise<ActionState> => {
  try {
    const result = await run();
    return { status: "ok", at: Date.now(), ...onSuccess(result) };
  } catch (error) {
    unstable_rethrow(error);
    const appError = toAppError(error);
    const fields = appError.options.fields && fieldsByFormInput(appError.options.fields);
    return {
      status: "error",
      at: Date.now(),
      message: fields ? "Please correct the highlighted fields." : appError.message,
      fields,
    };
  }
};

/** FormData → plain strings (missing fields are undefined, so zod reports them). */
export const formValue = (data: FormData, name: string) => {
  const value = data.get(name);
  return typeof value === "string" ? value : undefined;
};
