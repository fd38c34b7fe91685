import { router } from "../platform/trpc/init";
import { cancelSession } from "./cancel-session";
import { createQuote } from "./create-quote";
import { createSession } from "./create-session";
import { getSession } from "./get-session";

export const checkoutRouter = router({ createQuote, createSession, getSession, cancelSession });
