import type { ZodError } from "zod";
// Also installs the API's words for fields whose schema gave no message (zod's global error map).
import { unknownFieldReason } from "./zod-messages";

/** Turns a ZodError into the `fields` member of a 422: field name to the first reason. */
export const zodFields = (error: ZodError, prefix = ""): Record<string, string> => {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const name =
      prefix + (issue.path.filter((part) => typeof part !== "number").join(".") || "body");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) fields[prefix + key] ??= unknownFieldReason;
      continue;
    }
    fields[name] ??= issue.message;
  }
  return fields;
};
