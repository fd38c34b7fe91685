/**
 * A TCP proxy that puts a network between a client and a local server: every chunk, each way, and
 * the connection's opening arrive half a round trip late, in order. In front of the SMTP capture it
 * stands for a relay `rttMs` away (bench/mail.ts).
 */
import net from "node:net";

export const startLatencyProxy = async (target: { port: number }, rttMs: number) => {
  const oneWay = rttMs / 2;
  const later = (work: () => void) => setTimeout(work, oneWay);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    let upstream: net.Socket | undefined;
    const toUpstream: Buffer[] = [];
    // No Nagle on the proxy's own sockets: it forwards chunks as they come, adding only the delay.
    client.setNoDelay(true);
    sockets.add(client);
    // The connection reaches the server half a round trip after the client opened it.
    later(() => {
      if (client.destroyed) return;
      upstream = net.connect(target.port, "127.0.0.1").setNoDelay(true);
      sockets.add(upstream);
      for (const chunk of toUpstream.splice(0)) upstream.write(chunk);
      upstream.on("data", (chunk) => later(() => client.write(chunk)));
      upstream.on("end", () => later(() => client.end()));
      upstream.on("error", () => client.destroy());
      upstream.on("close", () => sockets.delete(upstream!));
    });
    // Timers of one delay fire in the order they were set, so the bytes keep their order.
    client.on("data", (chunk) =>
      later(() => (upstream ? upstream.write(chunk) : toUpstream.push(chunk))),
    );
    client.on("end", () => later(() => upstream?.end()));
    client.on("error", () => upstream?.destroy());
    client.on("close", () => sockets.delete(client));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
};
