import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TOKEN_KEY } from "./page-storage";
import { PageHeader } from "./PageHeader";
import { PageFrame } from "./transcripts/PageFrame";

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe("PageHeader", () => {
  it("offers Sign out on every page that has the shared header, not only the playground", async () => {
    sessionStorage.setItem(TOKEN_KEY, "t0k");
    vi.stubGlobal("fetch", async () => Response.json({ signedIn: true, token: "t0k", start: "npm-start" }));
    render(<PageFrame>{() => <p>the library</p>}</PageFrame>);
    expect(await screen.findByTestId("sign-out")).toBeTruthy();
    expect(screen.getByText("the library")).toBeTruthy();
  });

  it("puts the page's own status after the page-wide actions", () => {
    vi.stubGlobal("fetch", async () => Response.json({ signedIn: false, start: "npm-start" }));
    render(
      <PageHeader>
        <span data-testid="page-status">connected</span>
      </PageHeader>,
    );
    const actions = screen.getByTestId("page-status").parentElement!;
    expect(actions.lastElementChild?.getAttribute("data-testid")).toBe("page-status");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("ACP Playground");
  });
});
