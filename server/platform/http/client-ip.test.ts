/** The client's address: the socket's (set by npm start), X-Forwarded-For only through TRUST_PROXY. */
import { afterEach, describe, expect, it } from "vitest";
import { resetEnv } from "../env";
import { clientIp, socketAddressHeader } from "./client-ip";

const withProxies = (hops: number | undefined) => {
  if (hops === undefined) delete process.env.TRUST_PROXY;
  else process.env.TRUST_PROXY = String(hops);
  resetEnv();
};

afterEach(() => withProxies(undefined));

describe("clientIp", () => {
  it("without TRUST_PROXY a forged X-Forwarded-For is ignored", () => {
    withProxies(undefined);
    expect(
      clientIp(
        new Headers({ [socketAddressHeader]: "::ffff:192.0.2.7", "x-forwarded-for": "10.9.9.9" }),
      ),
    ).toBe("192.0.2.7");
    expect(clientIp(new Headers())).toBe("unknown");
  });

  it("with TRUST_PROXY=N the entry N places from the right (what our outermost proxy saw)", () => {
    withProxies(1);
    expect(
      clientIp(
        new Headers({
          [socketAddressHeader]: "10.0.0.2",
          "x-forwarded-for": "6.6.6.6, 198.51.100.4",
        }),
      ),
    ).toBe("198.51.100.4");
    withProxies(2);
    expect(
      clientIp(
        new Headers({
          [socketAddressHeader]: "10.0.0.2",
          "x-forwarded-for": "6.6.6.6, 198.51.100.4, 10.0.0.1",
        }),
      ),
    ).toBe("198.51.100.4");
    expect(clientIp(new Headers({ [socketAddressHeader]: "10.0.0.2" }))).toBe("10.0.0.2");
  });
});
