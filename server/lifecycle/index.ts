/** What other capabilities and the edges may use of lifecycle: everything else in the folder is its own. */
export { recordCall } from "./call-log";
export { deprecateEndpoint, listLifecycles, restoreEndpoint } from "./endpoint-lifecycle";
export { currentLifecycles } from "./lifecycle-store";
export type { Lifecycle } from "./lifecycle-store";
