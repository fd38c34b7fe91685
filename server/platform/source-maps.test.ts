import { afterEach, describe, expect, it } from "vitest";
import { applySourceMapsChoice } from "./source-maps";

const nodeOptions = process.env.NODE_OPTIONS;
const wasEnabled = process.sourceMapsEnabled;

afterEach(() => {
  if (nodeOptions === undefined) delete process.env.NODE_OPTIONS;
  else process.env.NODE_OPTIONS = nodeOptions;
  process.setSourceMapsEnabled(wasEnabled);
});

describe("applySourceMapsChoice", () => {
  it("turns source maps off when the operator did not ask for them", () => {
    process.setSourceMapsEnabled(true); // as tsx leaves them
    process.env.NODE_OPTIONS = "--max-semi-space-size=16";
    applySourceMapsChoice();
    expect(process.sourceMapsEnabled).toBe(false);
  });

  it("keeps them on with NODE_OPTIONS=--enable-source-maps", () => {
    process.setSourceMapsEnabled(false);
    process.env.NODE_OPTIONS = "--enable-source-maps --max-semi-space-size=16";
    applySourceMapsChoice();
    expect(process.sourceMapsEnabled).toBe(true);
  });
});
