/** Lifetimes of the account-linking credentials (the reference, Limits; DESIGN.md). */
export const authorizationCodeLifetimeSeconds = 600;
export const refreshTokenLifetimeSeconds = 30 * 24 * 3600;
export { accessTokenLifetimeSeconds } from "../auth";
