import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { MoreMenu, type MenuItem } from "./MoreMenu";

function renderMenu(items: MenuItem[], extra: { testId?: string; children?: string } = {}) {
  render(
    <div>
      <MoreMenu label="More on the row" className="btn" {...extra} items={items} />
      <button type="button" data-testid="elsewhere">
        elsewhere
      </button>
    </div>,
  );
}

describe("MoreMenu", () => {
  it("names its button as the row asks, and shows the row's text on it", () => {
    renderMenu([{ label: "Rename", testId: "rename" }], { testId: "session-menu", children: "Rename…" });
    const toggle = screen.getByTestId("session-menu");
    expect(toggle.textContent).toBe("Rename…");
    expect(toggle.getAttribute("aria-haspopup")).toBe("menu");
    expect(screen.queryByTestId("row-more")).toBeNull();
  });

  it("acts on a choice and closes; the arrows pass over a disabled item", () => {
    const onA = vi.fn();
    const onC = vi.fn();
    renderMenu([
      { label: "A", testId: "a", onSelect: onA },
      { label: "B", testId: "b", disabled: true, onSelect: () => {} },
      { label: "C", testId: "c", danger: true, onSelect: onC },
    ]);
    fireEvent.click(screen.getByTestId("row-more"));
    const menu = screen.getByRole("menu", { name: "More on the row" });
    expect(document.activeElement).toBe(within(menu).getByTestId("a"));
    fireEvent.keyDown(menu, { key: "ArrowDown" });
    expect(document.activeElement).toBe(within(menu).getByTestId("c"));
    fireEvent.keyDown(menu, { key: "Home" });
    expect(document.activeElement).toBe(within(menu).getByTestId("a"));
    fireEvent.keyDown(menu, { key: "End" });
    expect(document.activeElement).toBe(within(menu).getByTestId("c"));
    expect(within(menu).getByTestId("c").className).toContain("text-red-300");
    fireEvent.click(within(menu).getByTestId("c"));
    expect(onC).toHaveBeenCalledOnce();
    expect(onA).not.toHaveBeenCalled();
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it("offers a link item as a link, and a disabled one as a button that does nothing", () => {
    renderMenu([
      { label: "Open", testId: "open", href: "/transcripts/t1" },
      { label: "Rerun", testId: "rerun", href: "/rerun", disabled: true },
    ]);
    fireEvent.click(screen.getByTestId("row-more"));
    expect(screen.getByTestId("open").tagName).toBe("A");
    expect(screen.getByTestId("open").getAttribute("href")).toBe("/transcripts/t1");
    expect(screen.getByTestId("rerun").tagName).toBe("BUTTON");
    expect(screen.getByTestId<HTMLButtonElement>("rerun").disabled).toBe(true);
  });

  it("closes when the focus leaves it, without taking the focus back", () => {
    renderMenu([{ label: "A", testId: "a", onSelect: () => {} }]);
    fireEvent.click(screen.getByTestId("row-more"));
    const elsewhere = screen.getByTestId("elsewhere");
    fireEvent.blur(screen.getByTestId("a"), { relatedTarget: elsewhere });
    expect(screen.queryByRole("menu")).toBeNull();
    expect(screen.getByTestId("row-more").getAttribute("aria-expanded")).toBe("false");
  });
});
