/**
 * Shopper passwords, hashed with scrypt (a memory-hard KDF: passwords are low-entropy, unlike the
 * random client secrets and tokens in tokens.ts, so each guess must be expensive). The stored form
 * carries its parameters, so they can be raised later and old hashes still verify.
 */
import {
  randomBytes,
  scrypt as scryptCallback,
  timingSafeEqual,
  type ScryptOptions,
} from "node:crypto";

const scrypt = (password: string, salt: Buffer, keyLength: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCallback(password, salt, keyLength, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

/** N = 2^15, r = 8, p = 1: about 32 MiB and tens of milliseconds per hash (OWASP's scrypt minimum is 2^17 with r=8 at p=1 for new systems; 2^15 keeps sign-up bursts cheap on 2 cores — raise with hardware). */
const defaults = { N: 2 ** 15, r: 8, p: 1, keyLength: 32 };

const maxmem = (N: number, r: number) => 256 * N * r;

/** Hashes a password: `scrypt$N$r$p$salt$key` (base64url). */
export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(16);
  const { N, r, p, keyLength } = defaults;
  const key = await scrypt(password.normalize("NFKC"), salt, keyLength, {
    N,
    r,
    p,
    maxmem: maxmem(N, r),
  });
  return ["scrypt", N, r, p, salt.toString("base64url"), key.toString("base64url")].join("$");
};

/** True when `password` matches the stored hash; false for a malformed or missing hash. */
export const verifyPassword = async (
  password: string,
  stored: string | null | undefined,
): Promise<boolean> => {
  const parts = stored?.split("$") ?? [];
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], "base64url");
  const expected = Buffer.from(parts[5], "base64url");
  if (![N, r, p].every(Number.isInteger) || expected.length === 0) return false;
  const key = await scrypt(password.normalize("NFKC"), salt, expected.length, {
    N,
    r,
    p,
    maxmem: maxmem(N, r),
  });
  return timingSafeEqual(key, expected);
};

let dummyHash: Promise<string> | undefined;
/**
 * Spends the same time as a real verification when there is no account, so the sign-in answer
 * time does not tell whether an email is registered.
 */
export const verifyAgainstDummy = async (password: string) => {
  await verifyPassword(password, await (dummyHash ??= hashPassword("dummy-password-for-timing")));
  return false;
};
