import type { ReactNode } from "react";
import { Topbar } from "@/app/_components/topbar";
import { pageCaller } from "@/app/_trpc/server";
import "../ui.css";

export const dynamic = "force-dynamic";

export default async function DevelopersLayout({ children }: { children: ReactNode }) {
  const me = await (await pageCaller()).account.getMe().catch(() => undefined);
  return (
    <>
      <Topbar email={me?.email} />
      <main className="shell">{children}</main>
    </>
  );
}
