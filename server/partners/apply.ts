/**
 * A signed-in partner applies for credentials. In sandbox the application is approved at once;
 * in production it waits for the operator (`npm run ops -- client:approve`).
 */
import { isEmailConfirmed } from "../accounts";
import { approveApplication, readPortalApplication, insertApplication } from "../auth";
import { currentEnvironment } from "../auth";
import { redirectUriProblem } from "../auth";
import { randomId } from "../core/ids";
import { AppError } from "../core/errors";
import { shopperProcedure } from "../platform/trpc/procedures";
import { toApplicationView } from "./application-view";
import { ZApplyInput } from "./developers.schema";

/** Refuses redirect URIs this environment would never redirect to, naming the first bad one. */
export const checkRedirectUris = (uris: string[]) => {
  for (const uri of uris) {
    const problem = redirectUriProblem(uri, currentEnvironment());
    if (problem)
      throw new AppError("invalid_request", { fields: { redirect_uris: `${uri} ${problem}` } });
  }
};

export const applyForClient = shopperProcedure
  .input(ZApplyInput)
  .mutation(async ({ ctx, input }) => {
    checkRedirectUris(input.redirect_uris);
    if (!(await isEmailConfirmed(ctx.db, ctx.personId)))
      throw new AppError("email_not_verified", {
        message: "Confirm your email address before applying for credentials.",
      });
    const environment = currentEnvironment();
    const application = await insertApplication(ctx.db, {
      id: randomId("app_"),
      personId: ctx.personId,
      name: input.name,
      contactEmail: input.contact_email,
      redirectUris: input.redirect_uris,
      wantsLinking: input.wants_linking,
      environment,
    });
    if (environment === "sandbox")
      await approveApplication(ctx.db, application.id, ctx.clock.now());
    return toApplicationView(await readPortalApplication(ctx.db, application.id));
  });
