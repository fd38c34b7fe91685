/** Callers for integration tests: the same procedures REST and MCP use, with a chosen actor. */
import { createInnerContext } from "../platform/trpc/context";
import { createCaller } from "../edges/trpc/caller";

/** A client's token with `scopes`; with `personId`, one that person granted (linked account). */
export const partnerCaller = (
  scopes: string[] = ["catalog:read", "checkout:write"],
  clientId = "cli_test",
  personId?: string,
) =>
  createCaller(
    createInnerContext({
      requestId: "test",
      actor: { kind: "client", clientId, tokenId: "tok_test", scopes, personId },
    }),
  );

/** The caller of the pages for a signed-in shopper (issue 4). */
export const shopperCaller = (personId: string) =>
  createCaller(createInnerContext({ requestId: "test", actor: { kind: "person", personId } }));

/** The caller of the pages for a visitor who is not signed in. */
export const visitorCaller = () =>
  createCaller(createInnerContext({ requestId: "test", actor: { kind: "anonymous" } }));
