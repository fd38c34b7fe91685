/**
 * The shopper's connected apps, and Disconnect: every grant the person gave the app is revoked in
 * one update, so its access and refresh tokens stop on the very next request.
 */
import { z } from "zod";
import { disconnectApp as revokeConnection, listConnectedApps } from "../oauth";
import { allScopes } from "../auth";
import { AppError } from "../core/errors";
import { shopperProcedure } from "../platform/trpc/procedures";
import { ZConnectedApp, ZDisconnectAppInput } from "../accounts";

const scopeOrder = (scope: string) => allScopes.indexOf(scope as never);

export const connectedApps = shopperProcedure
  .output(z.array(ZConnectedApp))
  .query(async ({ ctx }) => {
    const apps = await listConnectedApps(ctx.db, { personId: ctx.personId, now: ctx.clock.now() });
    return apps.map((app) => ({
      ...app,
      scopes: [...app.scopes].sort((a, b) => scopeOrder(a) - scopeOrder(b)),
    }));
  });

export const disconnectApp = shopperProcedure
  .input(ZDisconnectAppInput)
  .mutation(async ({ ctx, input }) => {
    const revoked = await revokeConnection(ctx.db, {
      personId: ctx.personId,
      clientId: input.client_id,
      now: ctx.clock.now(),
    });
    // Another person's app, or one never connected, is simply not found.
    if (!revoked)
      throw new AppError("not_found", { message: "This app is not connected to your account." });
    return { disconnected: true };
  });
