/** The outage proxy sees a named prepared statement run again by name (a Bind without its text), as the raw-SQL transactions run them. */
import pg from "pg";
import { expect, it } from "vitest";
import { databaseProxy } from "./db-proxy";

it("cuts before the second run of a named statement, which carries only its name", async () => {
  const proxy = databaseProxy();
  const target = process.env.DATABASE_URL!;
  await proxy.use();
  const client = new pg.Client({ connectionString: proxy.url() });
  client.on("error", () => undefined);
  try {
    await client.connect();
    const statement = { name: "proxy-probe", text: "SELECT $1::int + 1 AS answer", values: [41] };
    expect((await client.query(statement)).rows).toEqual([{ answer: 42 }]);
    proxy.cutBefore(/SELECT \$1::int \+ 1/);
    await expect(client.query(statement)).rejects.toThrow(/Connection terminated/);
  } finally {
    process.env.DATABASE_URL = target;
    await client.end().catch(() => undefined);
    await proxy.cut();
  }
});
