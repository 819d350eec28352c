import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TOKEN_KEY } from "./page-storage";
import { SignOut } from "./SignOut";

/** The sign-in route as the server answers it (server/http/sign-in.ts), recording what the page asked. */
function fakeSignIn(signedIn: boolean) {
  const calls: string[] = [];
  vi.stubGlobal("fetch", async (url: string, init?: RequestInit) => {
    calls.push(`${init?.method ?? "GET"} ${url}`);
    if (init?.method === "DELETE") return new Response(null, { status: 204 });
    return Response.json(signedIn ? { signedIn, token: "t0k", start: "npm-start" } : { signedIn, start: "npm-start" });
  });
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe("SignOut", () => {
  it("signs a browser signed in by cookie out: the cookie (DELETE) and this tab's token go", async () => {
    sessionStorage.setItem(TOKEN_KEY, "t0k");
    const calls = fakeSignIn(true);
    const done = vi.fn();
    render(<SignOut onSignedOut={done} />);
    fireEvent.click(await screen.findByTestId("sign-out"));
    await waitFor(() => expect(done).toHaveBeenCalledOnce());
    expect(calls).toEqual(["GET /api/sign-in", "DELETE /api/sign-in"]);
    expect(sessionStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it("is not offered to a page whose token came from a link without a sign-in", async () => {
    sessionStorage.setItem(TOKEN_KEY, "t0k");
    const calls = fakeSignIn(false);
    render(<SignOut />);
    await waitFor(() => expect(calls).toEqual(["GET /api/sign-in"]));
    expect(screen.queryByTestId("sign-out")).toBeNull();
  });

  it("says so when the server does not answer, and keeps the token", async () => {
    sessionStorage.setItem(TOKEN_KEY, "t0k");
    fakeSignIn(true);
    render(<SignOut onSignedOut={() => undefined} />);
    const button = await screen.findByTestId("sign-out");
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("network down");
    });
    fireEvent.click(button);
    expect((await screen.findByRole("alert")).textContent).toMatch(/Sign out failed/);
    expect(sessionStorage.getItem(TOKEN_KEY)).toBe("t0k");
  });
});
