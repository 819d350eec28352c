"use client";
/**
 * "More ▾": a row's rare actions (docs/design.md, "Row actions fit on one line"), on the transcript
 * library's rows and the Sessions tab's. A menu of buttons and links: opened, its first item has the
 * focus and the arrows move it; it closes on a choice, on Escape (focus back on its button) and when
 * the focus leaves it.
 */
import Link from "next/link";
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from "react";

export interface MenuItem {
  label: ReactNode;
  testId: string;
  title?: string;
  disabled?: boolean;
  /** Red: destructive (it still asks before acting). */
  danger?: boolean;
  /** A link (navigates), else a button. */
  href?: string;
  onSelect?: () => void;
}

const item = "block w-full px-2 py-0.5 text-left text-xs hover:bg-zinc-800 disabled:opacity-40";

export function MoreMenu({
  items,
  label,
  className,
  testId = "row-more",
  children = "More ▾",
}: {
  items: MenuItem[];
  /** The menu's accessible name. */
  label: string;
  /** The toggle button's classes (the row's own button style). */
  className: string;
  /** The toggle button's data-testid (e2e specs select by it). */
  testId?: string;
  /** The toggle button's text: a row may show its running action there instead. */
  children?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  // Opens upward when the window has no room below (the last rows of a long list).
  const [up, setUp] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  const enabled = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not(:disabled)') ?? [])];
  useEffect(() => {
    if (open) enabled()[0]?.focus();
  }, [open]);
  const move = (e: KeyboardEvent) => {
    const items = enabled();
    const at = items.indexOf(document.activeElement as HTMLElement);
    const to =
      e.key === "ArrowDown" ? at + 1 : e.key === "ArrowUp" ? at - 1 : e.key === "Home" ? 0 : e.key === "End" ? -1 : NaN;
    if (Number.isNaN(to) || items.length === 0) return;
    e.preventDefault();
    items.at(to % items.length)?.focus();
  };
  return (
    <div
      className="relative"
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          e.preventDefault();
          close();
        }
      }}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) setOpen(false);
      }}
    >
      <button
        ref={toggle}
        type="button"
        data-testid={testId}
        aria-haspopup="menu"
        aria-expanded={open}
        className={className}
        onClick={(e) => {
          setUp(window.innerHeight - e.currentTarget.getBoundingClientRect().bottom < 180);
          setOpen(!open);
        }}
      >
        {children}
      </button>
      {open ? (
        <ul
          ref={menu}
          role="menu"
          onKeyDown={move}
          aria-label={label}
          className={`absolute right-0 z-20 ${up ? "bottom-full mb-0.5" : "top-full mt-0.5"} flex min-w-36 flex-col rounded border border-zinc-700 bg-zinc-900 py-0.5 shadow-lg`}
        >
          {items.map((i) => (
            <li key={i.testId} role="none">
              {i.href && !i.disabled ? (
                <Link
                  href={i.href}
                  role="menuitem"
                  data-testid={i.testId}
                  title={i.title}
                  className={`${item} text-zinc-200`}
                  onClick={() => setOpen(false)}
                >
                  {i.label}
                </Link>
              ) : (
                <button
                  type="button"
                  role="menuitem"
                  data-testid={i.testId}
                  title={i.title}
                  disabled={i.disabled}
                  className={`${item} ${i.danger ? "text-red-300" : "text-zinc-200"}`}
                  onClick={() => {
                    setOpen(false);
                    i.onSelect?.();
                  }}
                >
                  {i.label}
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
