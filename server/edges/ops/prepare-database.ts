/** Migrates the database and seeds the sandbox catalogue when it is empty (first start). */
import pg from "pg";
import { seedCatalog } from "../../../prisma/seed/catalog";
import { migrate } from "./migrate";

export const prepareDatabase = async (options: {
  url: string;
  seedItems: number;
  log: (line: string) => void;
}) => {
  const applied = await migrate(options.url);
  if (applied.length) options.log(`applied migrations: ${applied.join(", ")}`);
  if (options.seedItems <= 0) return;
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  try {
    const result = await seedCatalog(client, {
      items: options.seedItems,
      stores: 12,
      seed: 1,
      log: options.log,
    });
    if (!result.skipped)
      options.log(`seeded the sandbox catalogue: ${result.items} items in ${result.stores} stores`);
  } finally {
    await client.end();
  }
};
