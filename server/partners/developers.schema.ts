/** Schemas of the developer portal: applying for credentials and managing an approved client. */
import { z } from "zod";
import { ZEmail } from "../accounts";

/** Redirect URIs as the form sends them (one per line); the environment's rule is checked by the procedure. */
const ZRedirectUris = z
  .array(z.string().trim().min(1).max(2000, "must be at most 2000 characters"))
  .max(10, "at most 10 redirect URIs")
  .transform((uris) => [...new Set(uris)]);

export const ZApplyInput = z
  .object({
    name: z
      .string()
      .trim()
      .min(2, "must be at least 2 characters")
      .max(100, "must be at most 100 characters"),
    contact_email: ZEmail,
    redirect_uris: ZRedirectUris,
    wants_linking: z.boolean(),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (input.wants_linking && input.redirect_uris.length === 0)
      ctx.addIssue({
        code: "custom",
        path: ["redirect_uris"],
        message: "account linking needs at least one redirect URI",
      });
  });

export const ZApplicationIdInput = z
  .object({ application_id: z.string().min(1).max(100) })
  .strict();

export const ZUpdateRedirectUrisInput = z
  .object({ application_id: z.string().min(1).max(100), redirect_uris: ZRedirectUris })
  .strict();
