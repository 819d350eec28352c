/** Player icons as inline SVG: symbol fonts are not everywhere (headless Chromium has none). */
const svg = { width: 12, height: 12, viewBox: "0 0 12 12", fill: "currentColor", "aria-hidden": true } as const;

export const StepBackIcon = () => (
  <svg {...svg}>
    <rect x="1.5" y="2" width="1.6" height="8" />
    <path d="M10.5 2v8L4 6z" />
  </svg>
);

export const StepIcon = () => (
  <svg {...svg}>
    <path d="M1.5 2v8L8 6z" />
    <rect x="8.9" y="2" width="1.6" height="8" />
  </svg>
);

export const PlayIcon = () => (
  <svg {...svg}>
    <path d="M2.5 1.5v9L10.5 6z" />
  </svg>
);

export const PauseIcon = () => (
  <svg {...svg}>
    <rect x="2.5" y="2" width="2.4" height="8" />
    <rect x="7.1" y="2" width="2.4" height="8" />
  </svg>
);
