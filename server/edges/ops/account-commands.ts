/**
 * Operator commands of accounts and linking (issue 4): sandbox test persons, partner applications,
 * the client list, and initial access tokens for agent registration in production.
 */
import { z } from "zod";
import { languages } from "../../core/locale";
import { db } from "../../platform/db";
import { fail } from "./commands";
import { ZCanadianAddressSchema } from "../../core/address";
import {
  approveApplication,
  listApplications as applications,
  rejectApplication,
} from "../../auth";
import { hashPassword, listClients as clients } from "../../auth";
import { randomId, randomSecret } from "../../core/ids";
import { findEmails, insertPerson } from "../../accounts";
import { insertRegistrationToken } from "../../oauth";
import { ZEmail, ZPersonName, ZSetSpendingLimitsInput } from "../../accounts";
import { checkCardToSave, saveCardForPerson, type Card } from "../../accounts";
import { ZCardNumber } from "../../accounts";
import { toSavedCardResponse } from "../../accounts";
import { rowToSpendingSettingsResponse } from "../../accounts";
import { AppError } from "../../core/errors";
import { zodFields } from "../../core/zod-fields";
import { ZPassword } from "../../accounts";

const parse = <T>(schema: z.ZodType<T>, input: unknown): T => {
  const result = schema.safeParse(input);
  return result.success
    ? result.data
    : fail(
        result.error.issues
          .map(
            (issue) => `${issue.path.length ? `--${issue.path.join(".")} ` : ""}${issue.message}`,
          )
          .join("; "),
      );
};

const ZAddressJson = z
  .string()
  .transform((value, ctx) => {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "must be JSON" });
      return z.NEVER;
    }
  })
  .pipe(ZCanadianAddressSchema);

const ZCreatePerson = z.object({
  email: ZEmail,
  password: ZPassword,
  verified: z.boolean(),
  name: ZPersonName.optional(),
  sizes: z
    .string()
    .optional()
    .transform((value) => [
      ...new Set(
        (value ?? "")
          .split(",")
          .map((size) => size.trim())
          .filter(Boolean),
      ),
    ]),
  "address-json": ZAddressJson.optional(),
  "limit-per-order": z.string().optional(),
  "limit-per-30-days": z.string().optional(),
  paused: z.boolean().default(false),
  card: ZCardNumber.optional(),
  language: z.enum(languages, { error: "--language must be en or fr" }).optional(),
});

/** `--card NUMBER` (a sandbox test card) as the dashboard would save it, expiring in December five years on; refused the way the dashboard refuses it. */
const cardToSave = (number: string | undefined, now: Date): Card | undefined => {
  if (number === undefined) return undefined;
  const card = { number, exp_month: 12, exp_year: now.getUTCFullYear() + 5, cvc: "123" };
  try {
    checkCardToSave(card, now);
  } catch (error) {
    if (error instanceof AppError)
      fail(
        error.options.fields
          ? Object.values(error.options.fields)
              .map((reason) => `--card ${reason}`)
              .join("; ")
          : error.message,
      );
    throw error;
  }
  return card;
};

/** The two limits (both or neither), checked by the dashboard's own schema; in cents. */
const spendingLimits = (perOrder: string | undefined, per30Days: string | undefined) => {
  if (perOrder === undefined && per30Days === undefined) return {};
  if (perOrder === undefined || per30Days === undefined)
    return fail("--limit-per-order and --limit-per-30-days go together");
  const result = ZSetSpendingLimitsInput.safeParse({
    limit_per_order: perOrder,
    limit_per_30_days: per30Days,
  });
  if (!result.success)
    return fail(
      Object.entries(zodFields(result.error))
        .map(([field, reason]) => `--${field.replace(/_/g, "-")} ${reason}`)
        .join("; "),
    );
  return {
    spendingLimitPerOrderCents: result.data.limit_per_order,
    spendingLimitPer30DaysCents: result.data.limit_per_30_days,
  };
};

/** Creates a sandbox test person (optionally confirmed, with sizes, a saved address, spending limits, purchases paused, a saved test card). */
export const createPerson = async (input: unknown) => {
  const options = parse(ZCreatePerson, input);
  const address = options["address-json"];
  const limits = spendingLimits(options["limit-per-order"], options["limit-per-30-days"]);
  const now = new Date();
  const card = cardToSave(options.card, now);
  const person =
    (await insertPerson(db(), {
      id: randomId("per_"),
      email: options.email,
      name: options.name ?? null,
      passwordHash: await hashPassword(options.password),
      emailVerifiedAt: options.verified ? now : null,
      sizes: options.sizes,
      language: options.language ?? null,
      ...limits,
      ...(options.paused ? { purchasesPaused: true, purchasesPausedChangedAt: now } : {}),
      ...(address
        ? {
            address: {
              name: address.name,
              line1: address.line1,
              line2: address.line2,
              city: address.city,
              province: address.province,
              postalCode: address.postal_code,
              country: address.country,
              phone: address.phone,
            },
          }
        : {}),
    })) ?? fail(`a person with email ${options.email} exists`);
  const spending = rowToSpendingSettingsResponse(person);
  const saved = card
    ? toSavedCardResponse(await saveCardForPerson({ db: db(), personId: person.id, card, now }))
        .card
    : null;
  return {
    person_id: person.id,
    email: person.email,
    name: person.name,
    verified: options.verified,
    sizes: person.sizes,
    shipping_address: address ?? null,
    ...spending,
    card: saved,
  };
};

/** Lists partner applications (all, or of one status). */
export const listApplications = async (status: string | undefined) => {
  const listed = await applications(
    db(),
    status
      ? parse(
          z.enum(["pending", "approved", "rejected"], {
            error: "--status must be pending, approved or rejected",
          }),
          status,
        )
      : undefined,
  );
  const owners = await findEmails(db(), [...new Set(listed.map((a) => a.personId))]);
  return {
    applications: listed.map((a) => ({
      application_id: a.id,
      name: a.name,
      contact_email: a.contactEmail,
      owner_email: owners.get(a.personId)!,
      status: a.status,
      environment: a.environment,
      wants_linking: a.wantsLinking,
      redirect_uris: a.redirectUris,
      client_id: a.clientId,
      created_at: a.createdAt.toISOString(),
    })),
  };
};

/** Approves a pending application: creates its client (the owner generates the secret on the portal). */
export const approveApplicationCommand = async (applicationId: string | undefined) => {
  if (!applicationId) fail("usage: application:approve APPLICATION_ID");
  const client = await approveApplication(db(), applicationId!, new Date());
  if (!client) fail(`no pending application ${applicationId}`);
  return {
    application_id: applicationId,
    status: "approved",
    client_id: client!.id,
    scopes: client!.scopes,
    linking: client!.linkingEnabled,
  };
};

export const rejectApplicationCommand = async (applicationId: string | undefined) => {
  if (!applicationId) fail("usage: application:reject APPLICATION_ID");
  if (!(await rejectApplication(db(), applicationId!, new Date())))
    fail(`no pending application ${applicationId}`);
  return { application_id: applicationId, status: "rejected" };
};

/** Lists clients (partners and registered agents), never their secrets. */
export const listClients = async (kind: string | undefined) => {
  const listed = await clients(
    db(),
    kind
      ? parse(z.enum(["partner", "agent"], { error: "--kind must be partner or agent" }), kind)
      : undefined,
  );
  return {
    clients: listed.map((c) => ({
      client_id: c.id,
      name: c.name,
      kind: c.kind,
      environment: c.environment,
      scopes: c.scopes,
      redirect_uris: c.redirectUris,
      linking: c.kind === "agent" || c.linkingEnabled,
      created_at: c.createdAt.toISOString(),
      revoked_at: c.revokedAt?.toISOString() ?? null,
    })),
  };
};

const ZRegistrationToken = z.object({
  uses: z.coerce.number().int().min(1, "--uses must be at least 1").max(1000).default(1),
  days: z.coerce.number().int().min(1, "--days must be at least 1").max(365).default(30),
  note: z.string().max(200).optional(),
});

/** Issues an initial access token for POST /oauth/register/agent (production); printed once, stored as SHA-256. */
export const createRegistrationToken = async (input: unknown) => {
  const options = parse(ZRegistrationToken, input);
  const token = randomSecret("reg_");
  const expiresAt = new Date(Date.now() + options.days * 24 * 3600 * 1000);
  await insertRegistrationToken(db(), {
    token,
    note: options.note,
    maxUses: options.uses,
    expiresAt,
  });
  return { registration_token: token, max_uses: options.uses, expires_at: expiresAt.toISOString() };
};
