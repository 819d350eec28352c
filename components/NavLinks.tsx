"use client";
/**
 * Playground · Transcripts · Profiles. Plain in-app links: the access token
 * stays in this tab's sessionStorage, where every page reads it.
 */
import Link from "next/link";
import { usePathname } from "next/navigation";
import { Fragment, useEffect } from "react";
import { rememberProfileParam } from "./page-storage";

// `id` names the page for tests and stays when a label is reworded.
const LINKS = [
  { href: "/", id: "playground", label: "Playground" },
  { href: "/transcripts", id: "transcripts", label: "Transcripts" },
  { href: "/profiles", id: "profiles", label: "Profiles" },
  { href: "/compare", id: "compare", label: "Side by side" },
] as const;

const isActive = (path: string, href: string) =>
  href === "/" ? path === "/" : path === href || path.startsWith(`${href}/`);

export function NavLinks() {
  const path = usePathname() ?? "/";
  // "Replay as mock agent" links here with ?profile=replay:<id>: keep it for the profile select.
  useEffect(() => rememberProfileParam(), []);
  return (
    <nav aria-label="Pages" data-testid="nav-links" className="flex items-center gap-1 text-xs">
      {LINKS.map(({ href, id, label }, i) => {
        const active = isActive(path, href);
        return (
          <Fragment key={href}>
            {i > 0 ? <span className="text-zinc-400">·</span> : null}
            <Link
              href={href}
              data-testid={`nav-${id}`}
              aria-current={active ? "page" : undefined}
              className={`rounded px-1.5 py-0.5 ${active ? "text-zinc-100" : "text-zinc-400 hover:bg-zinc-800 hover:text-zinc-200"}`}
            >
              {label}
            </Link>
          </Fragment>
        );
      })}
    </nav>
  );
}
