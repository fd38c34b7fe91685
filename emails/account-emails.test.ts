/** The account emails in both languages, from their preview props (issue 27). */
import { describe, expect, it } from "vitest";
import { renderEmail } from "./render";
import { previewProps as accountExists } from "./account-exists";
import { previewProps as resetPassword } from "./reset-password";
import { previewProps as verifyEmail } from "./verify-email";

const cases = [
  ["verify-email", verifyEmail, "Confirm your email address", "Confirmez votre adresse courriel"],
  ["reset-password", resetPassword, "Reset your password", "Réinitialisez votre mot de passe"],
  ["account-exists", accountExists, "You already have an account", "Vous avez déjà un compte"],
] as const;

describe("account emails", () => {
  it.each(cases)("%s is written in the props' locale", async (name, props, en, fr) => {
    const english = await renderEmail(name, props);
    expect(english.subject).toBe(en);
    expect(english.html).toContain('lang="en-CA"');
    expect(english.text).toContain("Hi Ana Tremblay,");
    const french = await renderEmail(name, { ...props, locale: "fr-CA" });
    expect(french.subject).toBe(fr);
    expect(french.html).toContain('lang="fr-CA"');
    expect(french.text).toContain("Bonjour Ana Tremblay,");
    expect(french.text).not.toContain("Hi ");
  });

  it("an outbox row written before the locale existed reads as English", async () => {
    const { locale: _, ...old } = verifyEmail;
    expect((await renderEmail("verify-email", old)).subject).toBe("Confirm your email address");
  });
});
