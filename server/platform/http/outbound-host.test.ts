/** The one rule for hosts an outsider names: which addresses, and how a name is resolved. */
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  addressProblem,
  isLoopbackHost,
  pinnedLookup,
  resolveCheckedHost,
  setHostResolver,
  UnreachableHostError,
} from "./outbound-host";

afterEach(() => setHostResolver(undefined));

const privateOrReserved = [
  "10.1.2.3",
  "172.16.0.1",
  "192.168.1.1",
  "100.64.0.1",
  "0.0.0.0",
  "192.0.2.1",
  "198.18.0.1",
  "224.0.0.1",
  "255.255.255.255",
  "::",
  "fd00::1",
  "2001:db8::1",
  "64:ff9b::a00:1",
  "ff02::1",
];
const linkLocal = ["169.254.169.254", "fe80::1"];
const loopback = ["127.0.0.1", "127.1.2.3", "::1"];
const publicAddresses = ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:93.184.216.34"];
/** Each spelling of an IPv4-mapped IPv6 address is judged as the IPv4 address it carries. */
const mapped = {
  "::ffff:10.0.0.1": "private",
  "::ffff:a00:1": "private",
  "0:0:0:0:0:ffff:a00:1": "private",
  "::FFFF:A9FE:A9FE": "link-local",
  "0:0:0:0:0:ffff:169.254.169.254": "link-local",
  "::ffff:127.0.0.1": "loopback",
  "::ffff:7f00:1": "loopback",
} as const;

describe("addresses", () => {
  it("public: only public addresses (mapped ones as the IPv4 address they carry)", () => {
    for (const address of [...privateOrReserved, ...linkLocal, ...loopback, ...Object.keys(mapped)])
      expect(addressProblem(address, "public"), address).toBeDefined();
    for (const address of publicAddresses)
      expect(addressProblem(address, "public"), address).toBeUndefined();
    expect(addressProblem("10.1.2.3", "public")).toBe("is a private or reserved address");
    expect(addressProblem("::ffff:7f00:1", "public")).toBe("is a loopback address");
    expect(addressProblem("169.254.169.254", "public")).toBe("is a link-local address");
  });

  it("public-and-loopback admits loopback only", () => {
    for (const address of [...loopback, "::ffff:127.0.0.1", "::ffff:7f00:1", ...publicAddresses])
      expect(addressProblem(address, "public-and-loopback"), address).toBeUndefined();
    for (const address of [...privateOrReserved, ...linkLocal, "0:0:0:0:0:ffff:a00:1"])
      expect(addressProblem(address, "public-and-loopback"), address).toBeDefined();
  });

  it("a developer's machine admits everything but link-local (cloud metadata), in any spelling", () => {
    for (const address of [...privateOrReserved, ...loopback, ...publicAddresses])
      expect(addressProblem(address, "developer-machine"), address).toBeUndefined();
    for (const address of [...linkLocal, "::FFFF:A9FE:A9FE", "0:0:0:0:0:ffff:169.254.169.254"])
      expect(addressProblem(address, "developer-machine"), address).toBe("is a link-local address");
  });

  it("what is not an address is refused", () => {
    for (const text of ["", "example.com", "fe80::1%eth0", "1.2.3"])
      expect(addressProblem(text, "developer-machine"), text).toBe("is not an IP address");
  });
});

describe("loopback hosts (a developer's PUBLIC_URL, plain http to a receiver on it)", () => {
  it("are localhost and the names under it, 127.0.0.0/8 and [::1], in any spelling; never a DNS name", () => {
    for (const host of [
      "localhost",
      "api.localhost",
      "127.0.0.1",
      "127.9.9.9",
      "[::1]",
      "[::ffff:7f00:1]",
    ])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["10.0.0.1", "[fe80::1]", "localhost.example", "partner.example", "0.0.0.0"])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});

describe("resolving a host", () => {
  const deadline = () => AbortSignal.timeout(2_000);

  it("an IP literal is checked as it is, brackets or not, without asking DNS", async () => {
    setHostResolver(() => Promise.reject(new Error("DNS must not be asked")));
    await expect(
      resolveCheckedHost("[::1]", { policy: "developer-machine", signal: deadline() }),
    ).resolves.toEqual({ address: "::1", family: 6 });
    await expect(
      resolveCheckedHost("8.8.8.8", { policy: "public", signal: deadline() }),
    ).resolves.toEqual({ address: "8.8.8.8", family: 4 });
    await expect(
      resolveCheckedHost("[::ffff:a00:1]", { policy: "public", signal: deadline() }),
    ).rejects.toMatchObject({ reason: "refused", address: "::ffff:a00:1" });
  });

  it("localhost and names under it are loopback (RFC 6761), without asking DNS", async () => {
    setHostResolver(() => Promise.reject(new Error("DNS must not be asked")));
    for (const host of ["localhost", "LOCALHOST.", "api.localhost"]) {
      await expect(
        resolveCheckedHost(host, { policy: "developer-machine", signal: deadline() }),
      ).resolves.toEqual({ address: "127.0.0.1", family: 4 });
      await expect(
        resolveCheckedHost(host, { policy: "public", signal: deadline() }),
      ).rejects.toThrow(`${host} is a loopback address`);
    }
  });

  it("every address a name resolves to must pass: one private address among public ones refuses it", async () => {
    setHostResolver(async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "10.0.0.7", family: 4 },
    ]);
    const refused = await resolveCheckedHost("partner.example", {
      policy: "public",
      signal: deadline(),
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UnreachableHostError);
    // The message (a client may see it) does not name the address; the error keeps it for our logs.
    expect(refused).toMatchObject({
      reason: "refused",
      address: "10.0.0.7",
      message: "partner.example is a private or reserved address",
    });
    setHostResolver(async () => [{ address: "93.184.216.34", family: 4 }]);
    await expect(
      resolveCheckedHost("partner.example", { policy: "public", signal: deadline() }),
    ).resolves.toEqual({ address: "93.184.216.34", family: 4 });
  });

  it("a name with no address does not resolve; a lookup past the deadline times out", async () => {
    setHostResolver(async () => []);
    await expect(
      resolveCheckedHost("nothing.example", { policy: "public", signal: deadline() }),
    ).rejects.toMatchObject({ reason: "unresolved" });
    setHostResolver(() => new Promise(() => undefined));
    const started = performance.now();
    await expect(
      resolveCheckedHost("slow.example", { policy: "public", signal: AbortSignal.timeout(200) }),
    ).rejects.toMatchObject({ reason: "timeout" });
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});

describe("pinnedLookup (DNS rebinding, RELIABILITY B2-24)", () => {
  it("connects to the address the check approved, never resolving the name again: a name that resolves nowhere still reaches it, and an every-address lookup gets only it", async () => {
    const hosts: (string | undefined)[] = [];
    const server = createServer((request, response) => {
      hosts.push(request.headers.host);
      response.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const lookup = pinnedLookup({ address: "127.0.0.1", family: 4 });
    try {
      // .invalid never resolves (RFC 6761): only the pinned address can answer.
      const status = await new Promise<number>((resolve, reject) => {
        const request = httpRequest(
          `http://rebound.invalid:${port}/hooks`,
          { lookup, agent: false },
          (response) => {
            response.resume();
            response.on("end", () => resolve(response.statusCode ?? 0));
          },
        );
        request.on("error", reject);
        request.end();
      });
      expect(status).toBe(200);
      // Node's happy-eyeballs connect asks for every address: it gets only the pinned one.
      const all = await new Promise<unknown>((resolve) =>
        lookup("rebound.invalid", { all: true }, (_error, addresses) => resolve(addresses)),
      );
      expect(all).toEqual([{ address: "127.0.0.1", family: 4 }]);
      expect(hosts).toEqual([`rebound.invalid:${port}`]);
    } finally {
      server.close();
    }
  });
});
