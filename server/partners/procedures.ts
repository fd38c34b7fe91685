import { router } from "../platform/trpc/init";
import { applyForClient } from "./apply";
import { myApplications, rotateSecret, updateRedirectUris } from "./manage-client";

export const developersRouter = router({
  applyForClient,
  myApplications,
  rotateSecret,
  updateRedirectUris,
});
