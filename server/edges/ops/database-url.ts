/**
 * Finds the database the service uses: DATABASE_URL, else the embedded database a running
 * `npm start` serves, else the embedded database opened by this process (the service is stopped).
 */
import { env } from "../../platform/env";
import { runningEmbeddedDatabaseUrl, startEmbeddedDatabase } from "../../platform/embedded-db";

export const resolveDatabaseUrl = async (): Promise<{ url: string; stop: () => Promise<void> }> => {
  const config = env();
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, stop: async () => undefined };
  const running = runningEmbeddedDatabaseUrl(config.DATA_DIR);
  if (running) return { url: running, stop: async () => undefined };
  // Service stopped: start the cluster for this command (stdout stays for the command's output).
  return startEmbeddedDatabase(config.DATA_DIR, (line) => console.error(`[postgres] ${line}`));
};
