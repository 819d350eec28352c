/** Saves a blob or text as a file download (the API needs a header, so a plain link cannot do it). */
export function saveFile(data: Blob | string, name: string, type = "application/octet-stream"): void {
  const blob = typeof data === "string" ? new Blob([data], { type }) : data;
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.style.display = "none";
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The download has started by now; the object URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
