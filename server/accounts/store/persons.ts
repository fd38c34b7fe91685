/**
 * The queries of `persons` (a shopper's account: profile, sign-in, spending settings, the
 * processor's customer). Prisma: these run once per page or form of a person
 * (docs/adr/0014-raw-sql-on-hot-paths.md keeps raw SQL for the purchase and watch paths).
 * `spendingColumnsSql` and `lockPerson` are raw SQL, so those paths and the card's writers take the
 * same columns and the same row lock (docs/adr/0062-purchase-transactions.md).
 */
import { Prisma } from "../../generated/prisma/client";
import { type Language, type Locale, pickLocale, timeZoneOfProvince } from "../../core/locale";
import type { SpendingSettings } from "../../core/spending-limits";
import type { Db, Tx } from "../../platform/db";

type Client = Db | Tx;

/**
 * Takes the person's row lock (FOR NO KEY UPDATE), the lock a purchase holds while it reads the
 * saved card and the spending sums (docs/adr/0062-purchase-transactions.md, L14). In a transaction.
 */
export const lockPerson = async (tx: Pick<Tx, "$queryRaw">, personId: string) => {
  await tx.$queryRaw`SELECT id FROM persons WHERE id = ${personId} FOR NO KEY UPDATE`;
};

/** `lockPerson` of several persons, in id order (so two callers never wait on each other in a circle). */
export const lockPersons = async (tx: Pick<Tx, "$queryRaw">, personIds: readonly string[]) => {
  await tx.$queryRaw`SELECT id FROM persons WHERE id = ANY(${[...personIds]}::text[]) ORDER BY id FOR NO KEY UPDATE`;
};

// Profile and sign-up

const meSelect = { name: true, email: true, emailVerifiedAt: true, sizes: true } as const;

/** Name, email, whether it is confirmed, and sizes; null when no such person. */
export const findProfile = (db: Client, personId: string) =>
  db.person.findUnique({ where: { id: personId }, select: meSelect });

/** The person's current email; throws when no such person. */
export const readEmail = async (db: Client, personId: string) =>
  (await db.person.findUniqueOrThrow({ where: { id: personId }, select: { email: true } })).email;

/** The email of a person, or undefined when no such person. */
export const findEmail = async (db: Client, personId: string) =>
  (await db.person.findUnique({ where: { id: personId }, select: { email: true } }))?.email;

/** Whether some account has this email. */
export const isEmailTaken = async (db: Client, email: string) =>
  (await db.person.findUnique({ where: { email }, select: { id: true } })) !== null;

/** The person with this email (who to write to), or null. */
export const findPersonByEmail = (db: Client, email: string) =>
  db.person.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, language: true },
  });

/** Changes name and email; a new email is unconfirmed until its link is followed. */
export const updateNameAndEmail = (
  db: Client,
  options: { personId: string; name: string | null; email: string; isNewEmail: boolean },
) =>
  db.person.update({
    where: { id: options.personId },
    data: {
      name: options.name,
      email: options.email,
      ...(options.isNewEmail ? { emailVerifiedAt: null } : {}),
    },
    select: { id: true, name: true, email: true, language: true },
  });

export const updateSizes = async (db: Client, personId: string, sizes: string[]) =>
  (await db.person.update({ where: { id: personId }, data: { sizes }, select: { sizes: true } }))
    .sizes;

/** Creates an account from the sign-up form. */
export const insertSignUp = (
  db: Client,
  person: { id: string; email: string; name: string | null; passwordHash: string },
) => db.person.create({ data: person, select: { id: true, email: true, name: true } });

/** A person as created by the operator (sandbox test persons), with an optional saved address; undefined when the email is taken. */
export const insertPerson = (
  db: Client,
  person: {
    id: string;
    email: string;
    name: string | null;
    passwordHash: string;
    emailVerifiedAt: Date | null;
    sizes: string[];
    language?: string | null;
    spendingLimitPerOrderCents?: number;
    spendingLimitPer30DaysCents?: number;
    purchasesPaused?: boolean;
    purchasesPausedChangedAt?: Date;
    address?: Omit<Prisma.ShippingAddressUncheckedCreateInput, "personId">;
  },
) => {
  const { address, ...data } = person;
  return db.person
    .create({ data: { ...data, ...(address ? { shippingAddress: { create: address } } : {}) } })
    .catch((error: { code?: string }) =>
      error.code === "P2002" ? undefined : Promise.reject(error),
    );
};

// Email confirmation and password reset

/** What a confirmation link is checked against: the current email and whether it is confirmed; null when no such person. */
export const findEmailConfirmation = (db: Client, personId: string) =>
  db.person.findUnique({
    where: { id: personId },
    select: { email: true, emailVerifiedAt: true },
  });

/** Who to send a confirmation email to, and whether it is confirmed already; throws when no such person. */
export const readConfirmationRecipient = (db: Client, personId: string) =>
  db.person.findUniqueOrThrow({
    where: { id: personId },
    select: { id: true, email: true, name: true, language: true, emailVerifiedAt: true },
  });

/** Confirms the email a link was sent to, if it is still the person's and unconfirmed; whether it changed. */
export const confirmEmailAddress = async (
  db: Client,
  options: { personId: string; email: string; now: Date },
) =>
  (
    await db.person.updateMany({
      where: { id: options.personId, email: options.email, emailVerifiedAt: null },
      data: { emailVerifiedAt: options.now },
    })
  ).count === 1;

/** Whether the person still has this email. */
export const hasEmail = async (db: Client, options: { personId: string; email: string }) =>
  (await db.person.findFirst({
    where: { id: options.personId, email: options.email },
    select: { id: true },
  })) !== null;

/** Who asked for a reset link, with the hash the link is bound to; null when the address has no account. */
export const findResetRequester = (db: Client, email: string) =>
  db.person.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, language: true, passwordHash: true },
  });

/** The person a reset link names, with the hash it is bound to; null when no such person. */
export const findResetTarget = (db: Client, personId: string) =>
  db.person.findUnique({
    where: { id: personId },
    select: { id: true, email: true, passwordHash: true, emailVerifiedAt: true },
  });

/**
 * Sets a new password if the old hash is still current (of two submissions of one link, one
 * wins), confirming the email when it was not; whether it changed.
 */
export const replacePassword = async (
  db: Client,
  options: {
    personId: string;
    oldHash: string | null;
    newHash: string;
    now: Date;
    emailVerifiedAt: Date;
  },
) =>
  (
    await db.person.updateMany({
      where: { id: options.personId, passwordHash: options.oldHash },
      data: {
        passwordHash: options.newHash,
        passwordChangedAt: options.now,
        emailVerifiedAt: options.emailVerifiedAt,
      },
    })
  ).count === 1;

/** Whether the person confirmed their email (apps can be approved, credentials applied for); false when no such person. */
export const isEmailConfirmed = async (db: Client, personId: string) =>
  Boolean(
    (await db.person.findUnique({ where: { id: personId }, select: { emailVerifiedAt: true } }))
      ?.emailVerifiedAt,
  );

/** The sandbox mailbox's owner: their email, whether confirmed, and since when the account exists; throws when no such person. */
export const readMailboxOwner = (db: Client, personId: string) =>
  db.person.findUniqueOrThrow({
    where: { id: personId },
    select: { email: true, emailVerifiedAt: true, createdAt: true },
  });

/** The emails of these persons, by id. */
export const findEmails = async (db: Client, personIds: string[]) =>
  new Map(
    personIds.length
      ? (
          await db.person.findMany({
            where: { id: { in: personIds } },
            select: { id: true, email: true },
          })
        ).map((person) => [person.id, person.email])
      : [],
  );

// The processor's customer

/** The person's email and the processor customer remembered for them; throws when no such person. */
export const readCustomerOfPerson = (db: Client, personId: string) =>
  db.person.findUniqueOrThrow({
    where: { id: personId },
    select: { email: true, processorCustomerId: true },
  });

/** The processor customer remembered for the person; undefined when no such person. */
export const findProcessorCustomerId = async (db: Client, personId: string) => {
  const person = await db.person.findUnique({
    where: { id: personId },
    select: { processorCustomerId: true },
  });
  return person ? person.processorCustomerId : undefined;
};

/** Remembers the processor customer once; false when another one was remembered meanwhile. */
export const rememberProcessorCustomer = async (
  db: Client,
  options: { personId: string; customerId: string },
) =>
  (
    await db.person.updateMany({
      where: { id: options.personId, processorCustomerId: null },
      data: { processorCustomerId: options.customerId },
    })
  ).count === 1;

// Spending settings

const spendingSettingsSelect = {
  spendingLimitPerOrderCents: true,
  spendingLimitPer30DaysCents: true,
  purchasesPaused: true,
  purchasesPausedChangedAt: true,
} as const;

export type SpendingRow = {
  spendingLimitPerOrderCents: number | null;
  spendingLimitPer30DaysCents: number | null;
  purchasesPaused: boolean;
  purchasesPausedChangedAt: Date | null;
};

/** The SpendingRow columns of the persons row aliased `p`, for raw statements (the purchase's locked read, a watch's standing). */
export const spendingColumnsSql = Prisma.sql`p.spending_limit_per_order_cents AS "spendingLimitPerOrderCents", p.spending_limit_per_30_days_cents AS "spendingLimitPer30DaysCents",
  p.purchases_paused AS "purchasesPaused", p.purchases_paused_changed_at AS "purchasesPausedChangedAt"`;

export const spendingSettingsOf = (row: SpendingRow): SpendingSettings => ({
  limitPerOrderCents: row.spendingLimitPerOrderCents,
  limitPer30DaysCents: row.spendingLimitPer30DaysCents,
  isPaused: row.purchasesPaused,
  pausedChangedAt: row.purchasesPausedChangedAt,
});

/** The person's limits and pause switch; undefined when the person does not exist. Pass a transaction to read under its locks. */
export const readSpendingSettings = async (
  db: Pick<Db, "person">,
  personId: string,
): Promise<SpendingSettings | undefined> => {
  const row = await db.person.findUnique({
    where: { id: personId },
    select: spendingSettingsSelect,
  });
  return row ? spendingSettingsOf(row) : undefined;
};

/** The same; throws when no such person. */
export const readSpendingRow = (db: Client, personId: string) =>
  db.person.findUniqueOrThrow({ where: { id: personId }, select: spendingSettingsSelect });

/** Sets both limits (in cents; null: none); the settings as they now are. */
export const updateSpendingLimits = (
  db: Client,
  options: { personId: string; perOrderCents: number | null; per30DaysCents: number | null },
) =>
  db.person.update({
    where: { id: options.personId },
    data: {
      spendingLimitPerOrderCents: options.perOrderCents,
      spendingLimitPer30DaysCents: options.per30DaysCents,
    },
    select: spendingSettingsSelect,
  });

/** Flips the pause switch if it is not already so (the time of the change moves only then); whether it flipped. */
export const flipPurchasesPaused = async (
  db: Client,
  options: { personId: string; paused: boolean; now: Date },
) =>
  (
    await db.person.updateMany({
      where: { id: options.personId, purchasesPaused: !options.paused },
      data: { purchasesPaused: options.paused, purchasesPausedChangedAt: options.now },
    })
  ).count === 1;

/**
 * How a person reads their emails and pages: their saved language (else English: an email has no
 * browser to ask) and the zone of their saved address's province (else Toronto's). One statement,
 * raw SQL, so the purchase and watch paths can call it inside their own transactions.
 */
export const readReadingPreferences = async (
  sql: Pick<Tx, "$queryRaw">,
  personId: string,
): Promise<ReadingPreferences> =>
  (await readReadingPreferencesOf(sql, [personId])).get(personId) ?? readingOf(undefined);

export type ReadingPreferences = { locale: Locale; timeZone: string };

/** The reading preferences of a person's saved language and saved address's province, read by the caller (the one rule). */
export const readingOf = (
  row: { language: string | null; province: string | null } | undefined,
): ReadingPreferences => ({
  locale: pickLocale(row?.language, null),
  timeZone: timeZoneOfProvince(row?.province),
});

/** `readReadingPreferences` of several persons in one statement (the emails of one event, often many). */
export const readReadingPreferencesOf = async (
  sql: Pick<Tx, "$queryRaw">,
  personIds: readonly string[],
): Promise<Map<string, ReadingPreferences>> => {
  const rows = await sql.$queryRaw<
    { id: string; language: string | null; province: string | null }[]
  >`
    SELECT p.id, p.language, a.province FROM persons p
    LEFT JOIN shipping_addresses a ON a.person_id = p.id
    WHERE p.id = ANY(${[...new Set(personIds)]}::text[])`;
  return new Map(rows.map((row) => [row.id, readingOf(row)]));
};

/** The saved language ("en" | "fr") as the column holds it; anything else (null) reads as none. */
const languageOf = (value: string | null | undefined): Language | null =>
  value === "en" || value === "fr" ? value : null;

/** Saves the person's language; only their own row (the id is the signed-in person's). */
export const saveLanguage = async (db: Client, personId: string, language: Language) =>
  languageOf(
    (
      await db.person.update({
        where: { id: personId },
        data: { language },
        select: { language: true },
      })
    ).language,
  );

/**
 * What the account pages show and format with: the saved language (null: none, pages follow the
 * browser) and the zone of the saved address's province (else Toronto's).
 */
export const readPagePreferences = async (db: Client, personId: string) => {
  const row = await db.person.findUnique({
    where: { id: personId },
    select: { language: true, shippingAddress: { select: { province: true } } },
  });
  return {
    language: languageOf(row?.language),
    timeZone: timeZoneOfProvince(row?.shippingAddress?.province),
  };
};
