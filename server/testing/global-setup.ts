/** Vitest global setup: migrates a template database for this run; dropped at the end. */
import { migrate } from "../edges/ops/migrate";
import { databaseUrl, withAdmin } from "./databases";

export default async function setup({
  provide,
}: {
  provide: (key: string, value: string) => void;
}) {
  const template = `shopping_test_tpl_${process.pid}_${Date.now()}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${template}"`));
  await migrate(databaseUrl(template));
  provide("templateDatabase", template);
  return async () => {
    await withAdmin(async (admin) => {
      const { rows } = await admin.query<{ datname: string }>(
        "SELECT datname FROM pg_database WHERE datname LIKE $1",
        [`${template}%`],
      );
      for (const row of rows)
        await admin.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
      const copies = await admin.query<{ datname: string }>(
        "SELECT datname FROM pg_database WHERE datname LIKE $1",
        [`shopping_test_${process.pid}_%`],
      );
      for (const row of copies.rows)
        await admin.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
    });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}
