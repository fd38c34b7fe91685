"use client";
/**
 * A dashboard list of standing orders (price watches, watches on several items, search watches):
 * read again in place after an action or to change page, and every 15 s so what one did meanwhile
 * (bought, matched) shows up without a reload; with its actions' notice and busy state (useAction).
 * `read` is the list's query through @trpc/client (a module-level function: the timer is set once
 * a page); `messages` the namespace of the list's words: none, noMore, cancelled,
 * alreadyCancelled and cancelRefused.
 */
import { useCallback, useEffect, useState } from "react";
import { useTranslations } from "next-intl";
import { useAction } from "./use-action";

const refreshMs = 15_000;

export const useDashboardList = <
  List extends { page: number; has_more: boolean; time_zone: string },
>(
  initial: List,
  read: (page: number) => Promise<List>,
  messages: "watches.account" | "watchGroups.account" | "searchWatches.account",
) => {
  const t = useTranslations(messages);
  const [list, setList] = useState(initial);
  const { notice, busy, run } = useAction();
  const load = useCallback(async (page: number) => setList(await read(page)), [read]);

  useEffect(() => {
    const timer = setInterval(() => void load(list.page).catch(() => undefined), refreshMs);
    return () => clearInterval(timer);
  }, [load, list.page]);

  const goTo = (page: number) =>
    void run(async () => {
      await load(page);
      return null;
    });

  /**
   * Runs a cancel (the dashboard's cancels answer `already_cancelled`), then reads the list again
   * whatever happened. A refusal shows cancelRefused: the service's message is English and for
   * developers, and the list, read again, shows where the record stands.
   */
  const cancel = (mutate: () => Promise<{ already_cancelled: boolean }>) =>
    void run(async () => {
      try {
        const result = await mutate();
        return { tone: "ok", text: t(result.already_cancelled ? "alreadyCancelled" : "cancelled") };
      } catch {
        return { tone: "error", text: t("cancelRefused") };
      } finally {
        await load(list.page).catch(() => undefined);
      }
    });

  /** What DashboardList shows around the entries. */
  const frame = {
    notice,
    busy,
    page: list.page,
    hasMore: list.has_more,
    onGoTo: goTo,
    timeZone: list.time_zone,
    none: t("none"),
    noMore: t("noMore"),
  };
  return { list, busy, cancel, frame };
};
