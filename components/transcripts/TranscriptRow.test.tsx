import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Me, TranscriptMeta } from "@/lib/contracts/transcript-meta";
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

function renderRow(t: TranscriptMeta = meta, me?: Me) {
  const remove = vi.fn(() => Promise.resolve());
  const client = { remove, otlpTarget: () => Promise.resolve({ url: null }) } as unknown as TranscriptsClient;
  render(
    <table>
      <tbody>
        <TranscriptRow t={t} client={client} me={me} onChange={() => Promise.resolve()} onPick={() => {}} />
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

  it("offers bob no change to alice's recording, saying why; alice and the admin keep them", () => {
    const alices = { ...meta, owner: "alice" };
    const { row } = renderRow(alices, { owner: "bob" });
    const why = (action: string) => `only its owner, alice, or the server's admin can ${action} it`;
    const share = within(row).getByTestId<HTMLButtonElement>("share-transcript");
    expect([share.disabled, share.title]).toEqual([true, why("share")]);
    const title = within(row).getByTestId("transcript-title");
    expect(title.title).toBe(why("rename"));
    fireEvent.click(title);
    expect(within(row).queryByTestId("title-input")).toBeNull();
    fireEvent.click(within(row).getByTestId("row-more"));
    const del = within(row).getByTestId<HTMLButtonElement>("delete-transcript");
    expect([del.disabled, del.title]).toEqual([true, why("delete")]);
    // Reading stays open: the download is offered.
    expect(within(row).getByTestId<HTMLButtonElement>("download-transcript").disabled).toBe(false);
  });

  it("lets its owner and the admin change it", () => {
    for (const me of [{ owner: "alice" }, {}]) {
      const { row } = renderRow({ ...meta, owner: "alice" }, me);
      expect(within(row).getByTestId<HTMLButtonElement>("share-transcript").disabled).toBe(false);
      fireEvent.click(within(row).getByTestId("transcript-title"));
      expect(within(row).getByTestId("title-input")).toBeTruthy();
      fireEvent.click(within(row).getByTestId("row-more"));
      expect(within(row).getByTestId<HTMLButtonElement>("delete-transcript").disabled).toBe(false);
      cleanup();
    }
  });

  it("keeps a recording with no owner the admin's", () => {
    const { row } = renderRow(meta, { owner: "alice" });
    expect(within(row).getByTestId<HTMLButtonElement>("share-transcript").title).toMatch(
      /^only the server's admin can share it/,
    );
  });
});
