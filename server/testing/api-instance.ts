/**
 * One more instance of the service's API for tests that need several processes (the front door and
 * the lean layer as `npm start` serves them, on the environment's database and Redis): prints
 * `{"base": "http://127.0.0.1:PORT"}` once listening, then serves until killed.
 */
import { startConnectorServer } from "./mcp-server";

startConnectorServer().then(
  ({ base }) => console.log(JSON.stringify({ base })),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
