/** Check-column icons as inline SVG: emoji and symbol fonts are not everywhere (Debian's Chromium has none). */
const svg = {
  width: 10,
  height: 10,
  viewBox: "0 0 10 10",
  "aria-hidden": true,
  className: "mr-0.5 inline-block align-[-1px]",
} as const;

/** Waiting for an answer: an hourglass. */
export const WaitingIcon = () => (
  <svg {...svg} fill="none" stroke="currentColor" strokeWidth="1.2" strokeLinejoin="round">
    <path d="M2 1h6M2 9h6M2.8 1c0 2.4 4.4 2.6 4.4 4S2.8 6.6 2.8 9M7.2 1c0 2.4-4.4 2.6-4.4 4s4.4 1.6 4.4 4" />
  </svg>
);

/** A problem with the frame: a warning triangle. */
export const WarningIcon = () => (
  <svg {...svg} fill="currentColor">
    <path d="M5 .6 9.6 9.2H.4zM4.5 3.6v2.8h1V3.6zm0 3.6v1h1v-1z" fillRule="evenodd" />
  </svg>
);
