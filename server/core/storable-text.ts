/**
 * Text PostgreSQL can store, checked once for every input (issue 24 L2). PostgreSQL refuses a NUL
 * character in text and jsonb (a 500 when it reached the database), and a lone UTF-16 surrogate is
 * no Unicode at all (the driver writes U+FFFD: the stored text is not what was sent). Other C0
 * control characters (except tab, newline and carriage return) have no business in a name, an
 * address or a description and break logs and emails. The walk is iterative with a depth bound, so
 * a deeply nested body is a 422 too, never a stack overflow. Imports only the error table.
 */
import { AppError } from "./errors";
import { fieldName } from "./zod-fields";

/** Deepest nesting any input may have: the deepest schema is a few levels; 32 leaves room. */
const maxInputDepth = 32;

// C0 controls but \t \n \r, DEL, and a surrogate not part of a pair (control characters are the point here).
const unstorable =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const controlCharacterReason =
  "must not contain control characters (such as \\u0000) or unpaired surrogates";
const tooDeepReason = `must not be nested more than ${maxInputDepth} levels deep`;

/** True when `text` holds a character no input may carry. */
const isUnstorableText = (text: string) => unstorable.test(text);

/**
 * The first offending field of `value` (a parsed JSON body, a query, a procedure input) as
 * `{ field, reason }`, named like the 422 `fields` (object keys joined with dots, array indexes
 * left out, "body" at the top), or undefined when all of it is storable.
 */
export const findUnstorableInput = (
  value: unknown,
): { field: string; reason: string } | undefined => {
  const stack: { value: unknown; path: PropertyKey[]; depth: number }[] = [
    { value, path: [], depth: 0 },
  ];
  const nameOf = (path: PropertyKey[]) => fieldName(path) || "body";
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item.value === "string") {
      if (isUnstorableText(item.value))
        return { field: nameOf(item.path), reason: controlCharacterReason };
      continue;
    }
    if (item.value === null || typeof item.value !== "object") continue;
    // Named by where the nesting starts (its first two steps), not by every step below it.
    if (item.depth >= maxInputDepth)
      return { field: nameOf(item.path.slice(0, 2)), reason: tooDeepReason };
    if (Array.isArray(item.value)) {
      for (const [index, element] of item.value.entries())
        stack.push({ value: element, path: [...item.path, index], depth: item.depth + 1 });
      continue;
    }
    // Only plain data: a Date or a class instance a server caller passes is not user text.
    const prototype = Object.getPrototypeOf(item.value);
    if (prototype !== Object.prototype && prototype !== null) continue;
    for (const [key, child] of Object.entries(item.value)) {
      if (isUnstorableText(key))
        return { field: nameOf(item.path), reason: controlCharacterReason };
      stack.push({ value: child, path: [...item.path, key], depth: item.depth + 1 });
    }
  }
  return undefined;
};

/** Throws the 422 naming the field when `value` holds unstorable text or nests too deeply. */
export const assertStorableInput = (value: unknown) => {
  const found = findUnstorableInput(value);
  if (found) throw new AppError("invalid_request", { fields: { [found.field]: found.reason } });
};
