/**
 * A database outage answers 503 with Retry-After, and the service recovers by itself when the
 * database is back. The database is reached through a TCP proxy this test can cut.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as products } from "@/app/api/v1/products/route";
import { POST as tokenPost } from "@/app/oauth/token/route";

const target = new URL(process.env.DATABASE_URL!);
const sockets = new Set<net.Socket>();
let proxy: net.Server | undefined;
let port = 0;

const openProxy = () =>
  new Promise<void>((resolve) => {
    proxy = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
        socket.on("error", () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    proxy.listen(port, "127.0.0.1", () => {
      port = (proxy!.address() as net.AddressInfo).port;
      resolve();
    });
  });

const cutProxy = () =>
  new Promise<void>((resolve) => {
    for (const socket of sockets) socket.destroy();
    proxy!.close(() => resolve());
  });

let token: string;

beforeAll(async () => {
  await openProxy();
  const viaProxy = new URL(process.env.DATABASE_URL!);
  viaProxy.host = `127.0.0.1:${port}`;
  process.env.DATABASE_URL = viaProxy.toString();
  const { createPartner } = await import("../../prisma/factories");
  token = await (await createPartner()).token();
});

afterAll(async () => {
  if (proxy?.listening) await cutProxy();
});

const search = () => products(new Request("http://localhost:3000/api/v1/products?per_page=1", { headers: { authorization: `Bearer ${token}` } }));

describe("database outage", () => {
  it("503 with Retry-After while the database is unreachable, then recovers", async () => {
    expect((await search()).status).toBe(200);
    await cutProxy();
    const down = await search();
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("5");
    expect((await down.json()).error.code).toBe("unavailable");
    const token503 = await tokenPost(new Request("http://localhost:3000/oauth/token", {
      method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&client_id=cli_x&client_secret=y",
    }));
    expect(token503.status).toBe(503);
    expect(token503.headers.get("retry-after")).toBe("5");
    await openProxy();
    let recovered = 0;
    for (let attempt = 0; attempt < 20 && recovered !== 200; attempt++) {
      recovered = (await search()).status;
      if (recovered !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(recovered).toBe(200);
  }, 30_000);
});
