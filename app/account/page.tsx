import { getLocale, getTranslations } from "next-intl/server";
import { ActionForm, Field, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { shopperPageCaller } from "@/app/_trpc/server";
import { languageOfLocale, languages, type Locale } from "@/server/core/locale";
import { saveLanguageAction, updateProfileAction, updateSizesAction } from "./actions";

export const dynamic = "force-dynamic";
export const generateMetadata = async () => ({
  title: (await getTranslations("account.profile"))("metaTitle"),
});

/** Profile (name, email), saved sizes, and the language of the person's pages and emails. */
export default async function AccountPage() {
  const caller = await shopperPageCaller("/account");
  const [me, preferences] = await Promise.all([
    caller.account.getMe(),
    caller.account.getPreferences(),
  ]);
  const t = await getTranslations("account");
  const tCommon = await getTranslations("common");
  const language = preferences.language ?? languageOfLocale((await getLocale()) as Locale);
  return (
    <>
      <h1 className="page-title">{t("profile.title")}</h1>
      <p className="muted">{t("profile.lede")}</p>
      <section className="panel" aria-labelledby="profile-title">
        <h2 id="profile-title">{t("profile.profileTitle")}</h2>
        <p className="hint">{t("profile.profileHint")}</p>
        <ActionForm action={updateProfileAction}>
          <FormMessage />
          <div className="row">
            <Field
              name="name"
              label={t("profile.name")}
              defaultValue={me.name ?? ""}
              autoComplete="name"
            />
            <Field
              name="email"
              label={t("profile.email")}
              type="email"
              defaultValue={me.email}
              autoComplete="email"
            />
          </div>
          <div>
            <SubmitButton>{t("profile.save")}</SubmitButton>
          </div>
        </ActionForm>
      </section>
      <section className="panel" aria-labelledby="sizes-title">
        <h2 id="sizes-title">{t("profile.sizesTitle")}</h2>
        <p className="hint">{t("profile.sizesHint")}</p>
        <ActionForm action={updateSizesAction}>
          <FormMessage />
          <Field
            name="sizes"
            label={t("profile.sizes")}
            defaultValue={me.sizes.join(", ")}
            placeholder="M, 8, 32x34"
          />
          {me.sizes.length ? (
            <div className="chips" role="group" aria-label={t("profile.sizesTitle")}>
              {me.sizes.map((size) => (
                <span className="chip" key={size}>
                  {size}
                </span>
              ))}
            </div>
          ) : null}
          <div>
            <SubmitButton>{t("profile.saveSizes")}</SubmitButton>
          </div>
        </ActionForm>
      </section>
      <section className="panel" aria-labelledby="language-title">
        <h2 id="language-title">{t("language.title")}</h2>
        <p className="hint">{t("language.hint")}</p>
        <ActionForm action={saveLanguageAction}>
          <FormMessage />
          <Field name="language" label={t("language.label")}>
            <select
              id="field-language"
              name="language"
              className="select"
              defaultValue={language}
              data-saved={preferences.language ?? ""}
            >
              {languages.map((code) => (
                <option key={code} value={code} lang={code === "fr" ? "fr-CA" : "en-CA"}>
                  {tCommon(`language.${code}`)}
                </option>
              ))}
            </select>
          </Field>
          <div>
            <SubmitButton>{t("language.save")}</SubmitButton>
          </div>
        </ActionForm>
      </section>
    </>
  );
}
