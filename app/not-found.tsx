import Link from "next/link";

/** An address with no page (a mistyped or truncated link): Next's own 404 page offers no way on. */
export default function NotFound() {
  return (
    <main data-testid="not-found" className="mx-auto max-w-xl p-6 text-sm text-zinc-300">
      <h1 className="mb-2 text-base font-semibold text-zinc-100">No page at this address</h1>
      <p>
        The link may be mistyped or cut short. Go to the{" "}
        <Link href="/" className="text-sky-400 hover:underline">
          playground
        </Link>{" "}
        or the{" "}
        <Link href="/transcripts" className="text-sky-400 hover:underline">
          transcripts
        </Link>
        .
      </p>
    </main>
  );
}
