import { readFile } from "node:fs/promises";
import path from "node:path";

export const dynamic = "force-static";

/** Serves @scalar/api-reference's browser bundle from node_modules so /docs needs no CDN. */
export const GET = async () => {
  const file = path.join(
    process.cwd(),
    "node_modules",
    "@scalar",
    "api-reference",
    "dist",
    "browser",
    "standalone.js",
  );
  return new Response(await readFile(file), {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "public, max-age=86400",
    },
  });
};
