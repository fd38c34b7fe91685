/**
 * Runs a procedure for a server action and turns the outcome into ActionState: AppError messages
 * and 422 fields go back to the form; anything unexpected is logged and shown as a generic message.
 */
import "server-only";
import { toAppError } from "@/server/http/respond";
import type { ActionState } from "./action-state";

export const runAction = async <T>(run: () => Promise<T>, onSuccess: (result: T) => Omit<ActionState, "status">): Promise<ActionState> => {
  try {
    const result = await run();
    return { status: "ok", at: Date.now(), ...onSuccess(result) };
  } catch (error) {
    const appError = toAppError(error);
    const fields = appError.options.fields;
    return { status: "error", at: Date.now(), message: fields ? "Please correct the highlighted fields." : appError.message, fields };
  }
};

/** FormData → plain strings (missing fields are undefined, so zod reports them). */
export const formValue = (data: FormData, name: string) => {
  const value = data.get(name);
  return typeof value === "string" ? value : undefined;
};
