/** Shown instead of the playground when there is no usable access token. */
export function TokenMessage({ refused }: { refused: boolean }) {
  return (
    <div className="flex flex-1 items-center justify-center p-8">
      <div
        data-testid="token-message"
        role="alert"
        className="max-w-lg rounded-lg border border-zinc-800 bg-zinc-900 p-6 text-sm text-zinc-300 shadow-xl"
      >
        <h2 className="mb-2 text-base font-semibold text-zinc-100">
          {refused ? "The access token was refused" : "No access token"}
        </h2>
        <p>
          {refused ? "The relay did not accept this page's token; it changes every time the server restarts. " : ""}
          Open the URL printed by <code className="rounded bg-zinc-800 px-1 text-zinc-100">npm start</code>; it carries
          the access token.
        </p>
      </div>
    </div>
  );
}
