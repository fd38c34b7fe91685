"use client";
/**
 * False in the server's HTML and while React hydrates it, true once the page runs in the browser.
 * A form whose submit runs in JavaScript keeps its submit button disabled until then: clicked
 * before hydration, the browser would submit the form itself, as a GET that puts every field in the
 * URL (a password, a card number and its CVC, seen in a Playwright trace), and with its only submit
 * button disabled the browser does not submit on Enter either.
 */
import { useSyncExternalStore } from "react";

const subscribe = () => () => undefined;

export const useHydrated = () =>
  useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
