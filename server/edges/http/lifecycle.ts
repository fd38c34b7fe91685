/**
 * The probes and the graceful shutdown wired together, once for `npm start` (server/start.ts) and
 * the lifecycle tests' process: the front door takes `probes` before the server exists, and the
 * shutdown, made once it listens, tells the probes when the drain began. The readiness probe's
 * connection, the rate-limit store's and the database pools close after the given closers.
 */
import { closeDatabase } from "../../platform/db";
import { env } from "../../platform/env";
import { closeRateLimitStore, pingRateLimitStore } from "../../platform/rate-limit";
import { migrationNames } from "../ops/migrate";
import { createGracefulShutdown, type ShutdownOptions } from "./graceful-shutdown";
import { createProbeHandler, createReadiness } from "./probes";

export const createLifecycle = (options: {
  databaseUrl: string;
  log: (line: string) => void;
  isSearchIndexBuilding: () => boolean;
  /** Where the migrations that must be applied are (tests); prisma/migrations by default. */
  migrationsDir?: string;
}) => {
  let isDraining = () => false;
  const readiness = createReadiness({
    databaseUrl: options.databaseUrl,
    migrationNames: () => migrationNames(options.migrationsDir),
    isSearchIndexBuilding: options.isSearchIndexBuilding,
    isDraining: () => isDraining(),
    pingRedis: () => pingRateLimitStore(),
  });
  return {
    /** The front door's `probes` handler. */
    probes: createProbeHandler(readiness),
    /** Handles SIGTERM and SIGINT from now on (server/edges/http/graceful-shutdown.ts), with SHUTDOWN_DRAIN_MS and SHUTDOWN_TIMEOUT_MS. */
    handleSignals: (
      shutdownOptions: Omit<ShutdownOptions, "drainMs" | "timeoutMs" | "log"> & {
        /** Run after the pools closed: the embedded database's stop. */
        afterDatabase?: () => Promise<void>;
      },
    ) => {
      const { afterDatabase, ...rest } = shutdownOptions;
      const shutdown = createGracefulShutdown({
        ...rest,
        drainMs: env().SHUTDOWN_DRAIN_MS,
        timeoutMs: env().SHUTDOWN_TIMEOUT_MS,
        log: options.log,
        closers: [
          ...(rest.closers ?? []),
          closeRateLimitStore,
          async () => readiness.close(),
          closeDatabase,
          ...(afterDatabase ? [afterDatabase] : []),
        ],
      });
      isDraining = shutdown.isDraining;
      shutdown.handleSignals();
    },
  };
};
