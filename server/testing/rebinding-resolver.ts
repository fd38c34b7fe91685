/**
 * DNS rebinding for tests (RELIABILITY B2-24): the host resolver of server/platform/http/
 * outbound-host.ts replaced by one that answers `first` to the first lookup and `later` to every
 * other, as a name whose owner rebinds it between the check and the connection. Returns the names
 * looked up, so a test can show there was one lookup. Tests restore the resolver with
 * `setHostResolver(undefined)`.
 */
import { setHostResolver } from "../platform/http/outbound-host";

export const useRebindingResolver = (first: string, later: string) => {
  const lookups: string[] = [];
  setHostResolver(async (hostname) => {
    lookups.push(hostname);
    return [{ address: lookups.length === 1 ? first : later, family: 4 }];
  });
  return lookups;
};
