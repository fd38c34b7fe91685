/** Sets environment variables for the rest of the current test, then puts them back (forgetting the parsed environment both times). */
import { onTestFinished } from "vitest";
import { resetEnv } from "../platform/env";

export const useEnv = (settings: Record<string, string>) => {
  const before = Object.fromEntries(Object.keys(settings).map((name) => [name, process.env[name]]));
  Object.assign(process.env, settings);
  resetEnv();
  onTestFinished(() => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetEnv();
  });
};
