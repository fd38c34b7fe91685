/** Identifiers and secrets: unguessable prefixed ids (`chk_`, `pur_`, ...), random secrets, and their SHA-256 for storage. */
import { createHash, randomBytes, randomUUID } from "node:crypto";

export const randomSecret = (prefix: string) => `${prefix}${randomBytes(32).toString("base64url")}`;
export const randomId = (prefix: string) =>
  `${prefix}${randomUUID().replace(/-/g, "").slice(0, 24)}`;
export const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
