/**
 * A TCP proxy in front of the test database that a test can cut and reopen, to simulate an outage.
 * `use()` points DATABASE_URL at the proxy; call it before anything opens the database.
 */
import net from "node:net";

export const databaseProxy = () => {
  const target = new URL(process.env.DATABASE_URL!);
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  let cutTrigger: RegExp | undefined;

  const open = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => socket.destroy());
        }
        client.on("data", (chunk: Buffer) => {
          // A planned outage in the middle of an operation: cut just before this statement reaches the server.
          if (cutTrigger?.test(chunk.toString("latin1"))) {
            cutTrigger = undefined;
            void cut();
            return;
          }
          upstream.write(chunk);
        });
        upstream.pipe(client);
      });
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });

  const cut = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server?.listening) return resolve();
      server.close(() => resolve());
    });

  const use = async () => {
    await open();
    const viaProxy = new URL(process.env.DATABASE_URL!);
    viaProxy.host = `127.0.0.1:${port}`;
    process.env.DATABASE_URL = viaProxy.toString();
  };

  /** Cuts every connection (an outage) when the next statement matching `statement` is sent, before the server sees it. */
  const cutBefore = (statement: RegExp) => {
    cutTrigger = statement;
  };

  return { use, open, cut, cutBefore };
};
