/**
 * Signing secrets and signatures, per the Standard Webhooks specification through its own package
 * (`standardwebhooks`): `webhook-signature` is `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`,
 * and during a rotation's overlap it carries one signature per live secret, space-separated, so a
 * receiver holding either secret verifies.
 */
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** A new secret: `whsec_` and 32 random bytes in base64, the format the package's verifier takes. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

type Secrets = { secret: string; previousSecret: string | null; previousSecretUntil: Date | null };

/** The secrets that sign now: the current one, and the previous one until its overlap ends. */
export const liveSecrets = (endpoint: Secrets, now: Date) =>
  endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now
    ? [endpoint.secret, endpoint.previousSecret]
    : [endpoint.secret];

/** The three Standard Webhooks headers for one attempt. */
export const signedHeaders = (options: {
  id: string;
  body: string;
  secrets: readonly string[];
  timestamp: Date;
}) => ({
  "webhook-id": options.id,
  "webhook-timestamp": String(Math.floor(options.timestamp.getTime() / 1000)),
  "webhook-signature": options.secrets
    .map((secret) => new Webhook(secret).sign(options.id, options.timestamp, options.body))
    .join(" "),
});
