/**
 * A procedure's contract, read from the app router: the operation table names each entry's
 * procedure by its path and takes the caller and scope from its meta (server/platform/trpc/init.ts).
 */
import type { AnyTRPCProcedure } from "@trpc/server";
import type { Meta } from "../../platform/trpc/init";
import { appRouter } from "./root";

type PathsOf<R, Prefix extends string = ""> = {
  [K in keyof R & string]: R[K] extends AnyTRPCProcedure
    ? `${Prefix}${K}`
    : PathsOf<R[K], `${Prefix}${K}.`>;
}[keyof R & string];

/** A procedure's path in the app router, as its caller reaches it: "purchases.create". */
export type ProcedurePath = PathsOf<typeof appRouter._def.record>;

// Flat at run time ("purchases.create"), though typed as the nested record.
const procedures = appRouter._def.procedures as unknown as Record<string, AnyTRPCProcedure>;

/** The meta the procedure at `path` declares (undefined when it declares none). */
export const procedureMeta = (path: ProcedurePath) =>
  procedures[path]._def.meta as Meta | undefined;
