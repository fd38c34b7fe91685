/**
 * The operator's changes to an operation's lifecycle (`ops endpoint:deprecate | restore | list`).
 * A deprecation is written in one transaction with a notice email, through the outbox, to the
 * contact of every client that called the operation in the last 90 days (one email per address).
 * The reference's promise is enforced here: a deprecated operation keeps working at least 6 months
 * after the announcement, and brownouts fall between the announcement and the sunset.
 */
import { z } from "zod";
import { db } from "../../platform/db";
import { isOperationId } from "./operations";
import { changelogUrl, retiredError } from "./lifecycle-verdict";
import { enqueueEmail } from "../../platform/mail/outbox";
import { forgetLifecycles, toLifecycle, type Brownout, type Lifecycle } from "./lifecycle-store";

const dayMs = 24 * 60 * 60 * 1000;
/** Partners who called the operation this recently are told. */
const noticeWindowDays = 90;
/** A brownout is short: a partner notices it, their users barely do. */
const maxBrownoutMs = dayMs;

const ZOperationId = z.string().refine(isOperationId, {
  error: (issue) =>
    `unknown operation "${String(issue.input)}": give "METHOD /api/v1/path" as in the operation table (server/edges/rest/operations.ts; e.g. "GET /api/v1/categories")`,
});

const ZDeprecation = z
  .object({
    operationId: ZOperationId,
    sunset: z.date(),
    replacement: z.url({
      protocol: /^https?$/,
      error: "--replacement must be an absolute http(s) URL",
    }),
    brownouts: z
      .array(z.object({ start: z.date(), end: z.date() }))
      .max(20, "at most 20 brownouts"),
    now: z.date(),
    /** The first announcement when the operation is already deprecated (a change of dates or brownouts). */
    announcedAt: z.date().optional(),
  })
  .superRefine((value, context) => {
    const earliest = new Date(value.announcedAt ?? value.now);
    earliest.setUTCMonth(earliest.getUTCMonth() + 6);
    if (value.sunset < earliest)
      context.addIssue({
        code: "custom",
        message: `--sunset must be at least 6 months after the first announcement (on or after ${earliest.toISOString().slice(0, 10)})`,
      });
    for (const window of value.brownouts) {
      const label = `brownout ${window.start.toISOString()}/${window.end.toISOString()}`;
      if (window.end <= window.start)
        context.addIssue({ code: "custom", message: `${label} must end after it starts` });
      else if (window.end.getTime() - window.start.getTime() > maxBrownoutMs)
        context.addIssue({ code: "custom", message: `${label} is longer than 24 hours` });
      if (window.start < value.now || window.end > value.sunset)
        context.addIssue({
          code: "custom",
          message: `${label} must fall between now and the sunset`,
        });
    }
  });

export type Deprecation = Omit<z.input<typeof ZDeprecation>, "announcedAt">;

/** The changelog fragment of an operation's deprecation notice ("deprecate-get-api-v1-products-id"). */
const deprecationAnchor = (operationId: string) =>
  `deprecate-${operationId
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/-+$/, "")}`;

const day = (date: Date) => date.toISOString().slice(0, 10);
const windowText = (window: Brownout) =>
  `${window.start.toISOString()} to ${window.end.toISOString()}`;

/** The contact address of a client: its own, else its developer-portal application's, else its owner's. */
const contactOf = (client: {
  contactEmail: string | null;
  application: { contactEmail: string } | null;
  owner: { email: string } | null;
}) =>
  (client.contactEmail ?? client.application?.contactEmail ?? client.owner?.email)?.toLowerCase();

/**
 * Deprecates an operation (or changes its dates) and queues the notices. Throws a ZodError for
 * invalid input. Returns the lifecycle and the addresses told.
 */
export const deprecateEndpoint = async (
  input: Deprecation,
): Promise<{ lifecycle: Lifecycle; notified: string[] }> => {
  const result = await db().$transaction(async (tx) => {
    // A change of dates or brownouts keeps the first announcement: the 6 months run from it.
    const existing = await tx.endpointLifecycle.findUnique({
      where: { operationId: input.operationId },
      select: { deprecatedAt: true },
    });
    const { operationId, sunset, replacement, brownouts, now } = ZDeprecation.parse({
      ...input,
      announcedAt: existing?.deprecatedAt,
    });
    const sorted = [...brownouts].sort((a, b) => a.start.getTime() - b.start.getTime());
    const lifecycle: Lifecycle = {
      operationId,
      deprecatedAt: existing?.deprecatedAt ?? now,
      sunsetAt: sunset,
      replacement,
      brownouts: sorted,
      changelogAnchor: deprecationAnchor(operationId),
    };
    const since = new Date(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) -
        noticeWindowDays * dayMs,
    );
    const stored = {
      sunsetAt: sunset,
      replacement,
      brownouts: sorted.map((w) => ({ start: w.start.toISOString(), end: w.end.toISOString() })),
      changelogAnchor: lifecycle.changelogAnchor,
    };
    await tx.endpointLifecycle.upsert({
      where: { operationId },
      create: { operationId, deprecatedAt: lifecycle.deprecatedAt, ...stored },
      update: stored,
    });
    const calls = await tx.clientOperationCall.findMany({
      where: { operationId, lastCalledOn: { gte: since }, client: { revokedAt: null } },
      select: {
        client: {
          select: {
            name: true,
            contactEmail: true,
            application: { select: { contactEmail: true } },
            owner: { select: { email: true } },
          },
        },
      },
    });
    const byContact = new Map<string, string[]>();
    for (const { client } of calls) {
      const contact = contactOf(client);
      if (contact) byContact.set(contact, [...(byContact.get(contact) ?? []), client.name].sort());
    }
    for (const [to, clients] of byContact) {
      await enqueueEmail(tx, {
        to,
        template: "endpoint-deprecated",
        props: {
          operationId,
          clients,
          sunset: day(sunset),
          replacement,
          brownouts: sorted.map(windowText),
          changelogUrl: changelogUrl(lifecycle),
        },
        // One notice per address and announced sunset: re-running the command does not repeat it; new dates are a new notice.
        dedupeKey: `endpoint-deprecated:${operationId}:${sunset.toISOString()}:${sorted.map(windowText).join(",")}:${to}`,
      });
    }
    return { lifecycle, notified: [...byContact.keys()].sort() };
  });
  forgetLifecycles();
  return result;
};

/** Takes an operation's deprecation back: it answers as before on every instance within a second. */
export const restoreEndpoint = async (operationId: string) => {
  const id = ZOperationId.parse(operationId);
  const { count } = await db().endpointLifecycle.deleteMany({ where: { operationId: id } });
  forgetLifecycles();
  return { operationId: id, restored: count === 1 };
};

type LifecycleState = "deprecated" | "brownout" | "retired";

/** Every operation with a lifecycle and what it answers at `now`. */
export const listLifecycles = async (now: Date) => {
  const rows = await db().endpointLifecycle.findMany({
    orderBy: [{ deprecatedAt: "desc" }, { operationId: "asc" }],
  });
  return rows.map((row) => {
    const lifecycle = toLifecycle(row);
    const state: LifecycleState = !retiredError(lifecycle, now)
      ? "deprecated"
      : now >= lifecycle.sunsetAt
        ? "retired"
        : "brownout";
    return { lifecycle, state };
  });
};
