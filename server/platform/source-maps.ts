/**
 * Source maps off in the running service unless the operator asks for them with Node's own switch
 * (`NODE_OPTIONS=--enable-source-maps`). tsx turns them on for the whole process as it registers,
 * and then Node parses and keeps the map of every module loaded afterwards (tsx's inline maps, Next's
 * chunk maps, node_modules' maps with their sourcesContent): about 190 MB of an idle server's
 * 440 MB RSS at 100,000 items (docs/adr/0093-memory-of-the-running-service.md). Without them a
 * stack trace names the transpiled line, which for server/ code is tsx's output of the same file.
 */
export const applySourceMapsChoice = () => {
  const asked = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)].includes(
    "--enable-source-maps",
  );
  process.setSourceMapsEnabled(asked);
};

/**
 * The `eval` entry of a worker thread that runs the TypeScript module `file` (absolute): the thread
 * registers tsx's CommonJS hook itself, as the launcher does (docs/adr/0093), and registering tsx
 * turns source maps on again in the thread, so the server's choice is applied after it (the sweep
 * and search threads).
 */
export const typeScriptThreadEntry = (file: string) =>
  `require("tsx/cjs"); require(${JSON.stringify(__filename)}).applySourceMapsChoice(); require(${JSON.stringify(file)});`;
