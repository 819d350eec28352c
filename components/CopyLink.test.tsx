import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CopyLink } from "./CopyLink";

afterEach(() => sessionStorage.clear());

describe("CopyLink", () => {
  it("copies the page's address without the token, keeping what the page shows (a diff's ?a=&b=)", async () => {
    const writeText = vi.fn((_: string) => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    Object.defineProperty(window, "isSecureContext", { value: true, configurable: true });
    window.history.replaceState(null, "", "/transcripts/diff?a=one&b=two&ta=0&token=secret#seq=3");
    render(<CopyLink />);
    fireEvent.click(await screen.findByTestId("copy-link"));
    await waitFor(() => expect(writeText).toHaveBeenCalled());
    const copied = new URL(writeText.mock.calls[0]![0]);
    expect(copied.pathname).toBe("/transcripts/diff");
    expect(copied.search).toBe("?a=one&b=two&ta=0");
    expect(copied.hash).toBe("");
  });
});
