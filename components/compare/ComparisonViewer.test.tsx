import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ShareButton } from "./ComparisonViewer";

describe("a saved comparison's Share", () => {
  it("is disabled for another person's comparison, the reason as its title", () => {
    const why = "only its owner, alice, or the server's admin can share it";
    render(<ShareButton token="t" id="c1" refused={why} />);
    const share = screen.getByTestId<HTMLButtonElement>("comparison-share");
    expect([share.disabled, share.title]).toEqual([true, why]);
  });

  it("is offered to its owner and the admin", () => {
    render(<ShareButton token="t" id="c1" />);
    expect(screen.getByTestId<HTMLButtonElement>("comparison-share").disabled).toBe(false);
  });
});
