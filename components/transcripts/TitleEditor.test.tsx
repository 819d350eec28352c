import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { TitleEditor } from "./TitleEditor";

describe("TitleEditor", () => {
  it("Escape cancels without saving and gives the focus back to the title", () => {
    const onSave = vi.fn(() => Promise.resolve());
    render(<TitleEditor title="Write hello.txt" onSave={onSave} />);
    fireEvent.click(screen.getByTestId("transcript-title"));
    const input = screen.getByTestId("title-input");
    fireEvent.change(input, { target: { value: "Something else" } });
    fireEvent.keyDown(input, { key: "Escape" });
    fireEvent.blur(input);
    expect(onSave).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(screen.getByTestId("transcript-title"));
  });

  it("Enter saves, and the focus returns to the title", async () => {
    const onSave = vi.fn(() => Promise.resolve());
    render(<TitleEditor title="Write hello.txt" onSave={onSave} />);
    fireEvent.click(screen.getByTestId("transcript-title"));
    const input = screen.getByTestId("title-input");
    fireEvent.change(input, { target: { value: "Hello file" } });
    fireEvent.keyDown(input, { key: "Enter" });
    fireEvent.submit(input.closest("form")!);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId("transcript-title")));
    expect(onSave).toHaveBeenCalledWith("Hello file");
  });
});
