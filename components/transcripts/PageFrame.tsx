"use client";
/** The header of the transcripts and profiles pages, matching the playground's, and the token gate. */
import type { ReactNode } from "react";
import { CopyLink } from "../CopyLink";
import { NavLinks } from "../NavLinks";
import { TokenMessage } from "../TokenMessage";
import { useAccessToken } from "../page-storage";

export function PageHeader({ children }: { children?: ReactNode }) {
  return (
    <header className="flex h-10 shrink-0 items-center gap-3 border-b border-zinc-800 bg-zinc-900/70 px-3">
      <h1 className="text-sm font-semibold tracking-tight text-zinc-100">ACP Playground</h1>
      <NavLinks />
      {/* Page-wide actions on the right, as on the playground (docs/design.md). */}
      <div className="ml-auto flex items-center gap-2">
        {children}
        <CopyLink />
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

/** Header, then `children(token)` once a token is known, else where to get one. */
export function PageFrame({ children }: { children: (token: string) => ReactNode }) {
  const { ready, token } = useAccessToken();
  return (
    <div className="flex h-dvh flex-col">
      <PageHeader />
      {!ready ? null : token ? children(token) : <TokenMessage refused={false} />}
    </div>
  );
}
