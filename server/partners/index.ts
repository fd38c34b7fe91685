/** What other capabilities and the edges may use of partners: everything else in the folder is its own. */
export { developersRouter } from "./procedures";
export { deliverWebhooks } from "./webhooks/deliver-webhooks-job";
export { deliverDueWebhooks } from "./webhooks/deliver";
export {
  checkoutEventType,
  priceWatchEventType,
  purchaseEventType,
  webhookEventTypes,
} from "./webhooks/event-types";
export { webhooksRouter } from "./webhooks/procedures";
export { recordWebhookEvent } from "./webhooks/record-event";
export { recipientsSql } from "./store";
export {
  ZCreateWebhookEndpointBody,
  ZRotateSecretBody,
  ZWebhookEndpointIdParams,
  ZWebhookEndpointList,
  ZWebhookEndpointWithSecret,
  ZWebhookTestResult,
  maxEndpointsPerOwner,
} from "./webhooks/webhooks.schema";
