/** Disputes: chargebacks recorded from the processor, the stores' shares held back and given back (docs/adr/0109). */
export { recordDispute } from "./record-dispute";
export { listOpenDisputes } from "./store";
