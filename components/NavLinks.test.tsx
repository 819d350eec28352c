import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NavLinks } from "./NavLinks";
import { PROFILE_KEY } from "./page-storage";

let pathname: string | null = "/";
vi.mock("next/navigation", () => ({ usePathname: () => pathname }));

afterEach(() => sessionStorage.clear());

/** The links' test ids, each with whether it is marked as the current page. */
function current(): Record<string, boolean> {
  const links = screen.getAllByRole("link");
  return Object.fromEntries(links.map((a) => [a.dataset.testid, a.getAttribute("aria-current") === "page"]));
}

describe("NavLinks", () => {
  it("links the four pages in order, plainly (no token in the address)", () => {
    render(<NavLinks />);
    const links = screen.getAllByRole("link");
    expect(links.map((a) => [a.textContent, a.getAttribute("href")])).toEqual([
      ["Playground", "/"],
      ["Transcripts", "/transcripts"],
      ["Profiles", "/profiles"],
      ["Side by side", "/compare"],
    ]);
    expect(screen.getByRole("navigation", { name: "Pages" })).toBeTruthy();
  });

  it("marks the page it is on, and a page under it, but not the Playground for every path", () => {
    pathname = "/transcripts/abc123";
    const { rerender } = render(<NavLinks />);
    expect(current()).toEqual({
      "nav-playground": false,
      "nav-transcripts": true,
      "nav-profiles": false,
      "nav-compare": false,
    });
    pathname = "/";
    rerender(<NavLinks />);
    expect(current()["nav-playground"]).toBe(true);
    expect(current()["nav-transcripts"]).toBe(false);
    // A prefix of the name is another page, not one under it.
    pathname = "/profiles-old";
    rerender(<NavLinks />);
    expect(Object.values(current())).toEqual([false, false, false, false]);
    // Before the router knows the path, the Playground.
    pathname = null;
    rerender(<NavLinks />);
    expect(current()["nav-playground"]).toBe(true);
  });

  it("keeps the profile a Replay link asked for, for the playground's profile select", async () => {
    window.history.replaceState(null, "", "/transcripts?profile=replay%3At1");
    pathname = "/transcripts";
    // page-storage reads a document's ?profile= once: a fresh module, as a freshly loaded page has.
    vi.resetModules();
    const { NavLinks: Fresh } = await import("./NavLinks");
    render(<Fresh />);
    expect(sessionStorage.getItem(PROFILE_KEY)).toBe("replay:t1");
  });
});
