/**
 * The API's words for an invalid field whose schema gave no message of its own: a 422's `fields`
 * says which field and why in the reference's style ("is required", "must be at most 40
 * characters"), never zod's English ("Invalid input: expected string, received number", "Too big:
 * expected string to have <=40 characters"). Installed as zod's global error map when this module
 * loads; server/core/zod-fields.ts (the one reader of a ZodError for an answer) imports it, and every
 * edge loads that before it serves. A schema's own message still wins (zod asks the global map last).
 */
import { z } from "zod";
import type { $ZodRawIssue } from "zod/v4/core";

/** A body or query member the schema does not know (zod-fields.ts names each key with it). */
export const unknownFieldReason = "is not a known field";

const typeNames: Record<string, string> = {
  object: "must be an object",
  array: "must be a list",
  string: "must be a string",
  number: "must be a number",
  int: "must be a whole number",
  bigint: "must be a whole number",
  boolean: "must be true or false",
  date: "must be a date",
  null: "must be null",
  never: "is not allowed",
  undefined: "must be left out",
};

/** The verb and the unit of a size: a text has characters, a list items, a number neither. */
const sizeWords = (origin: string, count: number | bigint): [string, string] => {
  const plural = count === 1 ? "" : "s";
  if (origin === "string") return ["be", ` character${plural}`];
  if (origin === "array" || origin === "set") return ["have", ` item${plural}`];
  if (origin === "file") return ["be", " bytes"];
  return ["be", ""];
};

const formats: Record<string, string> = {
  email: "must be an email address",
  url: "must be a URL",
  uuid: "must be a UUID",
  datetime: "must be a date and time (ISO 8601)",
  date: "must be a date (YYYY-MM-DD)",
  regex: "is not in the expected format",
};

/** The message for one issue, or undefined to keep zod's (an issue kind not listed here). */
export const apiIssueMessage = (issue: $ZodRawIssue): string | undefined => {
  // A field left out fails as the wrong type or value (an enum's, a literal's): it is required.
  if (
    issue.input === undefined &&
    ["invalid_type", "invalid_value", "invalid_union"].includes(issue.code)
  )
    return "is required";
  switch (issue.code) {
    case "invalid_type":
      return typeNames[issue.expected] ?? `must be a ${issue.expected}`;
    case "too_big": {
      const [verb, noun] = sizeWords(issue.origin, issue.maximum);
      if (issue.exact) return `must ${verb} exactly ${issue.maximum}${noun}`;
      return issue.inclusive === false
        ? `must ${verb} ${verb === "have" ? "fewer" : "less"} than ${issue.maximum}${noun}`
        : `must ${verb} at most ${issue.maximum}${noun}`;
    }
    case "too_small": {
      const [verb, noun] = sizeWords(issue.origin, issue.minimum);
      if (issue.exact) return `must ${verb} exactly ${issue.minimum}${noun}`;
      if (noun && issue.minimum === 1 && issue.inclusive !== false) return "must not be empty";
      return issue.inclusive === false
        ? `must ${verb} more than ${issue.minimum}${noun}`
        : `must ${verb} at least ${issue.minimum}${noun}`;
    }
    case "invalid_format":
      if (issue.format === "starts_with" && "prefix" in issue)
        return `must start with ${JSON.stringify(issue.prefix)}`;
      if (issue.format === "ends_with" && "suffix" in issue)
        return `must end with ${JSON.stringify(issue.suffix)}`;
      if (issue.format === "includes" && "includes" in issue)
        return `must contain ${JSON.stringify(issue.includes)}`;
      return formats[issue.format] ?? `must be a valid ${issue.format}`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "invalid_value":
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of: ${issue.values.map((value: unknown) => String(value)).join(", ")}`;
    case "unrecognized_keys":
      return unknownFieldReason;
    case "invalid_union":
    case "invalid_key":
    case "invalid_element":
    case "custom":
      return "is not valid";
    default:
      return undefined;
  }
};

z.config({ customError: apiIssueMessage });
