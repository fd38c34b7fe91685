import type { ZodError } from "zod";
// Also installs the API's words for fields whose schema gave no message (zod's global error map).
import { unknownFieldReason } from "./zod-messages";

/**
 * How a 422 names a field (ADR 0020): its keys joined by dots, an array element by its index, so a
 * partner knows which of several items is wrong: `shipping_address.postal_code`, `items[1].quantity`.
 */
export const fieldName = (path: readonly PropertyKey[]) =>
  path.reduce<string>(
    (name, part) =>
      typeof part === "number"
        ? `${name}[${part}]`
        : name
          ? `${name}.${String(part)}`
          : String(part),
    "",
  );

/**
 * A 422's fields as a page's form names its inputs: the API names a list's element (`sizes[0]`), a
 * form has one input for the list (`sizes`), which shows the first of its elements' reasons.
 */
export const fieldsByFormInput = (fields: Record<string, string>) => {
  const byInput: Record<string, string> = {};
  for (const [field, reason] of Object.entries(fields))
    byInput[field.replace(/\[\d+\]/g, "")] ??= reason;
  return byInput;
};

/** Turns a ZodError into the `fields` member of a 422: field name to the first reason. */
export const zodFields = (error: ZodError, prefix = ""): Record<string, string> => {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys)
        fields[prefix + fieldName([...issue.path, key])] ??= unknownFieldReason;
      continue;
    }
    fields[prefix + (fieldName(issue.path) || "body")] ??= issue.message;
  }
  return fields;
};
