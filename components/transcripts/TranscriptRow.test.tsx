import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { TranscriptMeta } from "@/lib/contracts/transcript-meta";
import { TranscriptRow } from "./TranscriptRow";
import type { TranscriptsClient } from "./use-transcripts";

const meta: TranscriptMeta = {
  id: "t1",
  title: "Write hello.txt",
  createdAt: "2026-11-28T10:00:00.000Z",
  profile: "gemini",
  kind: "session",
  turns: 1,
  frames: 12,
  bytes: 2048,
  redactions: 0,
  recording: false,
};

function renderRow() {
  const remove = vi.fn(() => Promise.resolve());
  const client = { remove, otlpTarget: () => Promise.resolve({ url: null }) } as unknown as TranscriptsClient;
  render(
    <table>
      <tbody>
        <TranscriptRow t={meta} client={client} onChange={() => Promise.resolve()} onPick={() => {}} />
      </tbody>
    </table>,
  );
  return { remove, row: screen.getByTestId("transcript-row") };
}

describe("TranscriptRow", () => {
  it("keeps its frequent actions on the row and the rare ones under More, which closes on Escape", () => {
    const { row } = renderRow();
    for (const id of ["open-transcript", "replay-transcript", "share-transcript", "diff-pick"])
      expect(within(row).getByTestId(id)).toBeTruthy();
    for (const id of ["download-transcript", "export-transcript", "rerun-transcript", "delete-transcript"])
      expect(within(row).queryByTestId(id)).toBeNull();
    const more = within(row).getByTestId("row-more");
    fireEvent.click(more);
    expect(more.getAttribute("aria-expanded")).toBe("true");
    const menu = within(row).getByRole("menu");
    expect(
      within(menu)
        .getAllByRole("menuitem")
        .map((i) => i.dataset.testid),
    ).toEqual(["download-transcript", "export-transcript", "rerun-transcript", "delete-transcript"]);
    // Opened, the first item has the focus; the arrows move it, round the ends.
    expect(document.activeElement).toBe(within(menu).getByTestId("download-transcript"));
    fireEvent.keyDown(menu, { key: "ArrowDown" });
    expect(document.activeElement).toBe(within(menu).getByTestId("export-transcript"));
    fireEvent.keyDown(menu, { key: "ArrowUp" });
    fireEvent.keyDown(menu, { key: "ArrowUp" });
    expect(document.activeElement).toBe(within(menu).getByTestId("delete-transcript"));
    fireEvent.keyDown(menu, { key: "Escape" });
    expect(within(row).queryByRole("menu")).toBeNull();
    expect(document.activeElement).toBe(more);
  });

  it("asks before deleting, in place, and deletes on Yes", async () => {
    const { row, remove } = renderRow();
    fireEvent.click(within(row).getByTestId("row-more"));
    fireEvent.click(within(row).getByTestId("delete-transcript"));
    expect(remove).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(within(row).getByTestId("confirm-delete"));
    fireEvent.click(within(row).getByTestId("confirm-delete"));
    await waitFor(() => expect(remove).toHaveBeenCalledWith("t1"));
  });

  it("opens its menu upward when the window has no room below", () => {
    const { row } = renderRow();
    const more = within(row).getByTestId("row-more");
    more.getBoundingClientRect = () => ({ bottom: window.innerHeight - 40 }) as DOMRect;
    fireEvent.click(more);
    expect(within(row).getByRole("menu").className).toContain("bottom-full");
  });
});
