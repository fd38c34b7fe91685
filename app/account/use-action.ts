"use client";
/**
 * A dashboard action's state: busy while it runs, then its notice, or the refusal's message. Also
 * busy until the page is hydrated: a click on a button before then runs nothing (its handler is
 * not attached yet) and would be lost, so the buttons stay disabled until it would work.
 */
import { useState } from "react";
import { useHydrated } from "@/app/_components/use-hydrated";
import { messageOf } from "@/app/_trpc/client";
import type { Notice } from "./notice-line";

export const useAction = () => {
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const isHydrated = useHydrated();
  const run = async (action: () => Promise<Notice>) => {
    setBusy(true);
    try {
      setNotice(await action());
    } catch (error) {
      setNotice({ tone: "error", text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  };
  return { notice, busy: busy || !isHydrated, run };
};
