import type { ReactNode } from "react";
import "./globals.css";

export const metadata = {
  title: "Shopping API",
  description:
    "Catalogue, checkout links and assistant purchases across independent Canadian fashion stores.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
