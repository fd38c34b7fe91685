/**
 * Production and sandbox issue separate credentials from the same code: every client records the
 * SERVICE_ENV that issued it, its id and secret carry `test_` or `live_` (so a person can tell them
 * apart at a glance), and a client of the other environment is refused everywhere (token
 * endpoint, bearer authentication, authorize), even if both ever shared a database.
 */
import { env } from "../platform/env";

export type ServiceEnvironment = "sandbox" | "production";

export const currentEnvironment = (): ServiceEnvironment => env().SERVICE_ENV;

/** `test_` in sandbox, `live_` in production: appended to the cli_/sec_ prefixes. */
export const credentialTag = (environment: ServiceEnvironment = currentEnvironment()) =>
  environment === "sandbox" ? "test_" : "live_";

/** True when a client was issued by this deployment's environment. */
export const isCurrentEnvironment = (environment: string) => environment === currentEnvironment();
