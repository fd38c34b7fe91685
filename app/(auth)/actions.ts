"use server";
/** Server actions of sign-up, email confirmation and password reset: each calls one procedure. */
import { headers } from "next/headers";
import { pageCaller } from "@/app/_trpc/server";
import { admit, authLimits, limitLinkUse } from "@/server/auth";
import { clientIp } from "@/server/platform/http/client-ip";
import type { ActionState } from "@/app/_trpc/action-state";
import { formValue, runAction } from "@/app/_trpc/run-action";

export const signUpAction = async (_state: ActionState, data: FormData) =>
  runAction(
    async () => {
      await admit(authLimits.signUpPerIp, clientIp(await headers()));
      return (await pageCaller()).shopperAuth.signUp({
        email: formValue(data, "email") ?? "",
        password: formValue(data, "password") ?? "",
        name: formValue(data, "name") || null,
      });
    },
    (result) => ({
      message: `Check your inbox: we sent a link to ${result.email} to confirm your address.`,
    }),
  );

export const confirmEmailAction = async (_state: ActionState, data: FormData) =>
  runAction(
    async () =>
      limitLinkUse(clientIp(await headers()), async () =>
        (await pageCaller()).shopperAuth.confirmEmail({ token: formValue(data, "token") ?? "" }),
      ),
    (result) => ({
      message: `${result.email} is confirmed. You can now approve apps and assistants.`,
    }),
  );

export const requestResetAction = async (_state: ActionState, data: FormData) =>
  runAction(
    async () => {
      await admit(authLimits.emailLinksPerIp, clientIp(await headers()));
      return (await pageCaller()).shopperAuth.requestPasswordReset({
        email: formValue(data, "email") ?? "",
      });
    },
    (result) => ({
      message: `If ${result.email} has an account, we sent it a link to choose a new password. It works for one hour.`,
    }),
  );

export const resetPasswordAction = async (_state: ActionState, data: FormData) =>
  runAction(
    async () =>
      limitLinkUse(clientIp(await headers()), async () =>
        (await pageCaller()).shopperAuth.resetPassword({
          token: formValue(data, "token") ?? "",
          password: formValue(data, "password") ?? "",
        }),
      ),
    () => ({ message: "Your password was changed. Sign in with the new one." }),
  );
