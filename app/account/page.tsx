import { ActionForm, Field, FormMessage, SubmitButton } from "@/app/_components/action-form";
import { shopperPageCaller } from "@/app/_trpc/server";
import { updateProfileAction, updateSizesAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Your account · Shopping API" };

/** Profile (name, email) and saved sizes. */
export default async function AccountPage() {
  const me = await (await shopperPageCaller("/account")).account.getMe();
  return (
    <>
      <h1 className="page-title">Profile and sizes</h1>
      <p className="muted">Apps you connect with the profile permission can read these.</p>
      <section className="panel" aria-labelledby="profile-title">
        <h2 id="profile-title">Profile</h2>
        <p className="hint">Changing your email sends a confirmation link to the new address.</p>
        <ActionForm action={updateProfileAction}>
          <FormMessage />
          <div className="row">
            <Field name="name" label="Name" defaultValue={me.name ?? ""} autoComplete="name" />
            <Field
              name="email"
              label="Email"
              type="email"
              defaultValue={me.email}
              autoComplete="email"
            />
          </div>
          <div>
            <SubmitButton>Save profile</SubmitButton>
          </div>
        </ActionForm>
      </section>
      <section className="panel" aria-labelledby="sizes-title">
        <h2 id="sizes-title">Saved sizes</h2>
        <p className="hint">
          Separate sizes with commas, as stores list them: M, 8, 32x34, 9.5. Apps use them to filter
          searches.
        </p>
        <ActionForm action={updateSizesAction}>
          <FormMessage />
          <Field
            name="sizes"
            label="Sizes"
            defaultValue={me.sizes.join(", ")}
            placeholder="M, 8, 32x34"
          />
          {me.sizes.length ? (
            <div className="chips" aria-label="Saved sizes">
              {me.sizes.map((size) => (
                <span className="chip" key={size}>
                  {size}
                </span>
              ))}
            </div>
          ) : null}
          <div>
            <SubmitButton>Save sizes</SubmitButton>
          </div>
        </ActionForm>
      </section>
    </>
  );
}
