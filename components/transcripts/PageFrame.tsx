"use client";
/** The frame of the transcripts and profiles pages: the page header, and the token gate. */
import type { ReactNode } from "react";
import { PageHeader } from "../PageHeader";
import { TokenMessage } from "../TokenMessage";
import { useAccessToken } from "../page-storage";

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
