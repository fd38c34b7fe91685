"use client";
/** A dashboard action's state: busy while it runs, then its notice, or the refusal's message. */
import { useState } from "react";
import { messageOf } from "@/app/_trpc/client";
import type { Notice } from "./notice-line";

export const useAction = () => {
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
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
  return { notice, busy, run };
};
