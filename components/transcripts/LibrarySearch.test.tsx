import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { SearchQuery } from "@/lib/contracts/library-search";
import { LibrarySearch } from "./LibrarySearch";
import type { TranscriptsClient } from "./use-transcripts";

describe("LibrarySearch", () => {
  it("has no kind filter of its own: it searches the kind picked in the library's filter", async () => {
    const search = vi.fn((_q: SearchQuery) => Promise.resolve({ hits: [], total: 0, more: false, tookMs: 1 }));
    const client = { search } as unknown as TranscriptsClient;
    render(<LibrarySearch client={client} list={[]} kind="probe" />);
    expect(screen.queryByRole("combobox", { name: "Kind" })).toBeNull();
    fireEvent.change(screen.getByTestId("library-search-input"), { target: { value: "timeout" } });
    await waitFor(() => expect(search).toHaveBeenCalled());
    expect(search.mock.calls.at(-1)![0]).toMatchObject({ q: "timeout", kind: "probe" });
  });

  // "errors only" alone changed nothing on the page, without a word of why.
  it("says that its filters need words to search for, until there are some", async () => {
    const search = vi.fn((_q: SearchQuery) => Promise.resolve({ hits: [], total: 0, more: false, tookMs: 1 }));
    render(<LibrarySearch client={{ search } as unknown as TranscriptsClient} list={[]} kind="" />);
    expect(screen.queryByTestId("search-filters-hint")).toBeNull();
    fireEvent.click(screen.getByTestId("search-errors"));
    expect(screen.getByTestId("search-filters-hint").textContent).toBe(
      "These filters narrow a search (agent, profile and dates the latency per method too): type the words to look for.",
    );
    expect(search).not.toHaveBeenCalled();
    fireEvent.change(screen.getByTestId("library-search-input"), { target: { value: "timeout" } });
    expect(screen.queryByTestId("search-filters-hint")).toBeNull();
    await waitFor(() => expect(search.mock.calls.at(-1)![0]).toMatchObject({ q: "timeout", errors: true }));
  });
});
