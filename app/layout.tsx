import type { Metadata } from "next";
import type { ReactNode } from "react";
import "react-json-view-lite/dist/index.css";
import "./globals.css";

export const metadata: Metadata = {
  title: "ACP Playground",
  description: "Spawn ACP agents and see every JSON-RPC frame.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="font-sans">{children}</body>
    </html>
  );
}
