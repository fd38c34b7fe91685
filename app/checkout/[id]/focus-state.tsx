"use client";
/**
 * Brings focus to the checkout's state heading when it appears with nothing focused: after paying
 * (or a refused attempt) the payment form the keyboard was in is gone, and focus would fall back to
 * the top of the document. A focused control elsewhere is left alone.
 */
import { useEffect } from "react";

export function FocusState({ targetId }: { targetId: string }) {
  useEffect(() => {
    if (document.activeElement && document.activeElement !== document.body) return;
    document.getElementById(targetId)?.focus();
  }, [targetId]);
  return null;
}
