"use client";
/** The header every page shares: title, navigation, and page-wide actions on the right (docs/design.md). */
import type { ReactNode } from "react";
import { CopyLink } from "./CopyLink";
import { NavLinks } from "./NavLinks";
import { SignOut } from "./SignOut";

/** `children`: the page's own status, after the page-wide actions (the playground's relay status). */
export function PageHeader({ children }: { children?: ReactNode }) {
  return (
    <header className="flex h-10 shrink-0 items-center gap-3 border-b border-zinc-800 bg-zinc-900/70 px-3">
      <h1 className="text-sm font-semibold tracking-tight text-zinc-100">ACP Playground</h1>
      <NavLinks />
      {/* Page-wide actions on the right (docs/design.md). */}
      <div className="ml-auto flex items-center gap-2">
        <CopyLink />
        <SignOut />
        {children}
      </div>
    </header>
  );
}

/** The header of a share page: no navigation (its reader has no token), only what it shows. */
export function SharedPageHeader({ subtitle }: { subtitle: string }) {
  return (
    <header className="flex h-10 shrink-0 items-center gap-3 border-b border-zinc-800 bg-zinc-900/70 px-3">
      <h1 className="text-sm font-semibold tracking-tight text-zinc-100">ACP Playground</h1>
      <span className="text-xs text-zinc-400">{subtitle}</span>
    </header>
  );
}
