/** The hosted checkout page's procedures; the page calls them through server actions. */
import { router } from "../../platform/trpc/init";
import { confirmAuthentication } from "./confirm-authentication";
import { pay } from "./pay";
import { selectShipping } from "./select-shipping";
import { completeIntent, startIntent } from "./start-intent";
import { view } from "./view";

export const checkoutPageRouter = router({
  view,
  selectShipping,
  pay,
  confirmAuthentication,
  startIntent,
  completeIntent,
});
