/**
 * The owner's view of their applications and clients: list them, generate or rotate the client
 * secret (shown once, in this response only), and edit redirect URIs.
 */
import {
  readPortalApplication,
  listOwnPortalApplications,
  replaceRedirectUris,
  rotateClientSecret,
} from "../auth";
import type { Db } from "../platform/db";
import { AppError } from "../core/errors";
import { shopperProcedure } from "../platform/trpc/procedures";
import { checkRedirectUris } from "./apply";
import { ownApplication, toApplicationView } from "./application-view";
import { ZApplicationIdInput, ZUpdateRedirectUrisInput } from "./developers.schema";

export const myApplications = shopperProcedure.query(async ({ ctx }) => {
  const applications = await listOwnPortalApplications(ctx.db, ctx.personId);
  return applications.map(toApplicationView);
});

/** The client of an approved, unrevoked application of the signed-in owner. */
export const ownClient = async (db: Db, personId: string, applicationId: string) => {
  const application = await ownApplication(db, personId, applicationId);
  if (!application.client || application.client.revokedAt)
    throw new AppError("not_found", { message: "This application has no active client yet." });
  return application.client;
};

export const rotateSecret = shopperProcedure
  .input(ZApplicationIdInput)
  .mutation(async ({ ctx, input }) => {
    const client = await ownClient(ctx.db, ctx.personId, input.application_id);
    const secret = await rotateClientSecret(ctx.db, client.id, ctx.clock.now());
    return {
      client_id: client.id,
      client_secret: secret,
      replaced_previous: client.secretHash !== null,
    };
  });

export const updateRedirectUris = shopperProcedure
  .input(ZUpdateRedirectUrisInput)
  .mutation(async ({ ctx, input }) => {
    checkRedirectUris(input.redirect_uris);
    const client = await ownClient(ctx.db, ctx.personId, input.application_id);
    if (client.linkingEnabled && input.redirect_uris.length === 0)
      throw new AppError("invalid_request", {
        fields: { redirect_uris: "account linking needs at least one redirect URI" },
      });
    await replaceRedirectUris(ctx.db, {
      applicationId: input.application_id,
      clientId: client.id,
      redirectUris: input.redirect_uris,
    });
    return toApplicationView(await readPortalApplication(ctx.db, input.application_id));
  });
