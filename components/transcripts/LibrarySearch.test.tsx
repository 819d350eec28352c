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
});
