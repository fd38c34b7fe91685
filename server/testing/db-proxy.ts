/**
 * A TCP proxy in front of the test database that a test can cut and reopen, to simulate an outage.
 * `use()` points DATABASE_URL at the proxy; call it before anything opens the database.
 */
import net from "node:net";

/**
 * What a connection's chunk asks the server to run, as text a test's pattern can match: the chunk
 * itself, plus the text of each named prepared statement it executes by name (a Bind to a statement
 * parsed earlier on the connection carries only the name: server/platform/sql.ts names its statements).
 */
const statementReader = () => {
  const named = new Map<string, string>();
  let pending = Buffer.alloc(0);
  let started = false;
  const cstrings = (body: Buffer) => body.toString("latin1").split("\0");
  return (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    const executed: string[] = [];
    for (;;) {
      if (!started) {
        if (pending.length < 8) break;
        const length = pending.readInt32BE(0);
        if (pending.length < length) break;
        // SSLRequest (80877103) is followed by the real startup message.
        started = pending.readInt32BE(4) !== 80877103;
        pending = pending.subarray(length);
        continue;
      }
      if (pending.length < 5) break;
      const length = pending.readInt32BE(1);
      if (pending.length < 1 + length) break;
      const type = String.fromCharCode(pending[0]);
      const body = pending.subarray(5, 1 + length);
      pending = pending.subarray(1 + length);
      if (type === "P") {
        const [name, text] = cstrings(body);
        if (name) named.set(name, text);
      } else if (type === "B") {
        const text = named.get(cstrings(body)[1]);
        if (text) executed.push(text);
      }
    }
    return `${chunk.toString("latin1")}\n${executed.join("\n")}`;
  };
};

export const databaseProxy = () => {
  const target = new URL(process.env.DATABASE_URL!);
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  let cutTrigger: RegExp | undefined;
  let stall: { statement: RegExp; reached: () => void } | undefined;
  let cutAfterCommitTrigger: RegExp | undefined;

  const open = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => socket.destroy());
        }
        const readStatements = statementReader();
        // Armed by cutAfterCommitOf on this connection: its next COMMIT reaches the server, and the
        // outage comes before the server's answer reaches the client.
        let commitArmed = false;
        let dropAnswer = false;
        client.on("data", (chunk: Buffer) => {
          const statements = readStatements(chunk);
          if (cutAfterCommitTrigger?.test(statements)) {
            cutAfterCommitTrigger = undefined;
            commitArmed = true;
          }
          if (commitArmed && /\bCOMMIT\b/i.test(statements)) {
            commitArmed = false;
            dropAnswer = true;
          }
          // A planned outage in the middle of an operation: cut just before this statement reaches the server.
          if (cutTrigger?.test(statements)) {
            cutTrigger = undefined;
            void cut();
            return;
          }
          // A process stopped at a chosen statement: the statement is held back (never reaches the
          // server) and so is everything after it on that connection, until the process is killed.
          if (stall?.statement.test(statements)) {
            const { reached } = stall;
            stall = undefined;
            client.pause();
            reached();
            return;
          }
          upstream.write(chunk);
        });
        upstream.on("data", (chunk: Buffer) => {
          if (dropAnswer) return void cut();
          client.write(chunk);
        });
        upstream.on("end", () => client.end());
        // A client that goes away (a killed process) takes its server connection with it, so the
        // server rolls back its open transaction and frees its locks at once, as it would on a real socket.
        client.on("close", () => upstream.destroy());
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

  /**
   * The next transaction that sends a statement matching `statement` commits on the server, and
   * then every connection is cut before the answer to its COMMIT reaches the client: a failover
   * right after the commit (RELIABILITY B4-04), the client not knowing whether it committed.
   */
  const cutAfterCommitOf = (statement: RegExp) => {
    cutAfterCommitTrigger = statement;
  };

  /** Holds back the next statement matching `statement` and every later byte of its connection; resolves when it arrives. */
  const stallBefore = (statement: RegExp) =>
    new Promise<void>((reached) => {
      stall = { statement, reached };
    });

  /** The proxy's address as a DATABASE_URL, for a child process. */
  const url = () => {
    const viaProxy = new URL(target.toString());
    viaProxy.host = `127.0.0.1:${port}`;
    return viaProxy.toString();
  };

  return { use, open, cut, cutBefore, cutAfterCommitOf, stallBefore, url };
};
