/**
 * Files handed to the user: a Blob behind an object URL, clicked through an <a download>. That works in
 * the browser shell and in Electron alike (the window's session shows its save dialog), with no extra
 * bridge method and nothing the content security policy has to allow.
 */

export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // The browser reads the blob after the click returns: the URL lives on a while (a backup may be large).
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** CSV text as the core made it (UTF-8, a header row). */
export function downloadCsv(fileName: string, content: string): void {
  downloadBlob(new Blob([content], { type: 'text/csv;charset=utf-8' }), fileName);
}

export function bytesFromBase64(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
