import { router } from "../../platform/trpc/init";
import { confirmEmail, inspectConfirmation } from "./confirm-email";
import { inspectPasswordReset, requestPasswordReset, resetPassword } from "./password-reset";
import { resendConfirmation } from "./resend-confirmation";
import { signUp } from "./sign-up";

export const shopperAuthRouter = router({
  signUp,
  inspectConfirmation,
  confirmEmail,
  resendConfirmation,
  requestPasswordReset,
  inspectPasswordReset,
  resetPassword,
});
