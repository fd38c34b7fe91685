import type { ReactNode } from "react";
import { NextIntlClientProvider } from "next-intl";
import { getLocale } from "next-intl/server";
import "./globals.css";

export const metadata = {
  title: "Shopping API",
  description:
    "Catalogue, checkout links and assistant purchases across independent Canadian fashion stores.",
};

/** The page's language is the shopper's (app/_i18n/request.ts); client parts get the same messages. */
export default async function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang={await getLocale()}>
      <body>
        <NextIntlClientProvider>{children}</NextIntlClientProvider>
      </body>
    </html>
  );
}
