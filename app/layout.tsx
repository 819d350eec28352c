import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import "react-json-view-lite/dist/index.css";
import "./globals.css";

export const metadata: Metadata = {
  title: "ACP Playground",
  description: "Spawn ACP agents and see every JSON-RPC frame.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Rendered per request, so Next puts the request's CSP nonce (server/http/security.ts) on its scripts.
  await connection();
  return (
    <html lang="en">
      <body className="font-sans">{children}</body>
    </html>
  );
}
