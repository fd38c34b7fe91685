/** The sweep's purge removes ended grants, codes and refresh tokens, and keeps everything still usable. */
import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { linkedPerson } from "../../testing/oauth";
import { sha256 } from "../tokens";
import { purgeEndedCredentials } from "./purge";

describe("purge of ended credentials", () => {
  it("deletes a grant revoked over 30 days ago (with its tokens) and spent codes; keeps a live grant", async () => {
    const live = await linkedPerson();
    const ended = await linkedPerson();
    const grant = await db().oAuthGrant.findFirstOrThrow({ where: { personId: ended.person.id } });
    await db().oAuthGrant.update({ where: { id: grant.id }, data: { revokedAt: new Date(Date.now() - 31 * 86_400_000) } });
    await db().authorizationCode.updateMany({ where: { grant: { personId: live.person.id } }, data: { consumedAt: new Date(Date.now() - 2 * 86_400_000) } });

    const result = await purgeEndedCredentials({ db: db(), now: new Date(), force: true });
    expect(result).toMatchObject({ grants: 1 });
    expect(await db().oAuthGrant.count({ where: { id: grant.id } })).toBe(0);
    expect(await db().accessToken.count({ where: { grantId: grant.id } })).toBe(0);
    expect(await db().authorizationCode.count({ where: { grant: { personId: live.person.id } } })).toBe(0);
    // A used refresh token stays for reuse detection; the live link still works.
    const used = await db().refreshToken.findFirstOrThrow({ where: { grant: { personId: live.person.id } } });
    await db().refreshToken.update({ where: { id: used.id }, data: { usedAt: new Date(Date.now() - 2 * 86_400_000) } });
    await purgeEndedCredentials({ db: db(), now: new Date(), force: true });
    expect(await db().refreshToken.count({ where: { id: used.id } })).toBe(1);
    await db().refreshToken.update({ where: { id: used.id }, data: { usedAt: null } });
    expect(await db().refreshToken.count({ where: { tokenHash: sha256(live.tokens.refresh_token) } })).toBe(1);
    expect((await live.refresh(live.tokens.refresh_token)).status).toBe(200);
  });
});
