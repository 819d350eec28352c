/** Shown instead of the playground when there is no usable access token. */
const code = "rounded bg-zinc-800 px-1 text-zinc-100";

export function TokenMessage({ refused }: { refused: boolean }) {
  return (
    <div className="flex flex-1 items-center justify-center p-8">
      <div
        data-testid="token-message"
        role="alert"
        className="flex max-w-lg flex-col gap-2 rounded-lg border border-zinc-800 bg-zinc-900 p-6 text-sm text-zinc-300 shadow-xl"
      >
        <h2 className="text-base font-semibold text-zinc-100">
          {refused ? "The access token was refused" : "No access token"}
        </h2>
        <p>
          {refused ? "The relay did not accept this page's token; it changes every time the server restarts. " : ""}
          Open the URL printed by <code className={code}>npm start</code>; it carries the access token. In a page that
          has it, “Copy link” (top right) copies it for another tab or browser.
        </p>
        <p data-testid="token-stable-hint">
          To keep one token across restarts, start the server with{" "}
          <code className={code}>ACP_PLAYGROUND_TOKEN=&lt;a long random string&gt; npm start</code> and bookmark{" "}
          <code className={code}>/?token=&lt;that string&gt;</code>.
        </p>
      </div>
    </div>
  );
}
