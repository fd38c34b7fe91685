/**
 * Why a price watch ended, as a key of watches.json's `why`: its outcome when there is a sentence for
 * it, else "other". Pure, shared by the watch emails and the watch pages.
 */
import { messagesOf } from "../server/core/messages";

type WhyKey = keyof ReturnType<typeof messagesOf>["watches"]["why"];

const whyKeys = messagesOf("en-CA").watches.why;

export const watchOutcomeKey = (outcome: string | null | undefined): WhyKey =>
  outcome && Object.hasOwn(whyKeys, outcome) ? (outcome as WhyKey) : "other";
