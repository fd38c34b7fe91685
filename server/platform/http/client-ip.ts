/**
 * The address a request came from. `npm start`'s front door (server/edges/http/front-door.ts) writes the socket's address into
 * `socketAddressHeader` on every request, overwriting anything the client sent, so handlers served
 * by Next and by the lean layer read it the same way. `X-Forwarded-For` counts only with
 * TRUST_PROXY=N (N proxies of ours in front): then the entry N places from the right, the
 * address our outermost proxy saw. IPv4-mapped IPv6 addresses are written as IPv4.
 */
import { env } from "../env";

export const socketAddressHeader = "x-shopping-socket-address";

const normalise = (address: string) => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1");

/** The client's address, or "unknown" when the request did not come through `npm start` (tests calling handlers). */
export const clientIp = (headers: Headers): string => {
  const socket = headers.get(socketAddressHeader) ?? "unknown";
  const hops = env().TRUST_PROXY;
  if (!hops) return normalise(socket);
  const forwarded = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return normalise(forwarded[forwarded.length - hops] ?? socket);
};
