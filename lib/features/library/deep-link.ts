/**
 * Links to a frame or a turn: `#seq=N` after a transcript's address (the viewer, a share page,
 * an HTML export) opens it scrolled to that frame, selected. A turn's link is its prompt's frame.
 */

/** The frame a location's hash names (`#seq=N`, N from 1), else undefined. */
export function seqFromHash(hash: string): number | undefined {
  const m = /^#?seq=(\d{1,9})$/.exec(hash.trim());
  const seq = m ? Number(m[1]) : NaN;
  return seq >= 1 ? seq : undefined;
}

/**
 * The link to frame `seq` from a page at `href`: that page's own address with the hash set
 * (the access token, shown only once, left out); from the playground itself, the live
 * session's transcript in the viewer. Undefined when there is no transcript to point into, or
 * when the page's reader has no access token (a watch link, a shared comparison): the viewer
 * would only ask them for one.
 */
export function frameLink(href: string, seq: number, transcriptId?: string): string | undefined {
  const url = new URL(href);
  if (/^\/(watch|compare\/shared)\//.test(url.pathname)) return undefined;
  url.hash = `seq=${seq}`;
  if (url.protocol === "file:" || /^\/(transcripts|share)\/[^/]+$/.test(url.pathname)) {
    // A share link's own token stays: it is what opens the page.
    if (url.pathname.startsWith("/transcripts/")) url.searchParams.delete("token");
    return url.toString();
  }
  if (!transcriptId) return undefined;
  return `${url.origin}/transcripts/${encodeURIComponent(transcriptId)}#seq=${seq}`;
}
