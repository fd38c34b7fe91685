/** GET /me: the person's name, email and saved sizes (profile:read, or the shopper's own page). */
import { AppError } from "../core/errors";
import { procedure } from "../platform/trpc/procedures";
import { findProfile } from "./store/persons";
import { ZMeResponse } from "./account.schema";

export const getMe = procedure({ caller: "person", scope: "profile:read", shopper: true })
  .output(ZMeResponse)
  .query(async ({ ctx }) => {
    const person = await findProfile(ctx.db, ctx.personId);
    if (!person) throw new AppError("not_found");
    return {
      name: person.name,
      email: person.email,
      email_verified: person.emailVerifiedAt !== null,
      sizes: person.sizes,
    };
  });
