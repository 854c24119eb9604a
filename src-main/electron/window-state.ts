/**
 * The window's size and position, remembered between runs in a small JSON file in the user-data folder.
 * The file is read as untrusted input: anything malformed or absurd is ignored.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

export interface WindowBounds {
  x: number;
  y: number;
  width: number;
  height: number;
  maximized: boolean;
}

const inRange = (n: unknown, min: number, max: number): n is number => typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max;

export function parseWindowBounds(value: unknown): WindowBounds | null {
  if (typeof value !== 'object' || value === null) return null;
  const b = value as Record<string, unknown>;
  if (!inRange(b.x, -100_000, 100_000) || !inRange(b.y, -100_000, 100_000)) return null;
  if (!inRange(b.width, 400, 20_000) || !inRange(b.height, 300, 20_000)) return null;
  return { x: b.x, y: b.y, width: b.width, height: b.height, maximized: b.maximized === true };
}

export function loadWindowBounds(file: string): WindowBounds | null {
  try {
    return parseWindowBounds(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return null;
  }
}

export function saveWindowBounds(file: string, bounds: WindowBounds): void {
  // Write then rename, so that a crash never leaves half a file; its owner's alone, as every file of the app.
  writeFileSync(`${file}.tmp`, JSON.stringify(bounds), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

/** Whether enough of the window (a 100 px strip of its title bar) lies on one of the displays. */
export function isVisibleOn(bounds: WindowBounds, displays: { x: number; y: number; width: number; height: number }[]): boolean {
  return displays.some(
    (d) => bounds.x + bounds.width - 100 >= d.x && bounds.x + 100 <= d.x + d.width && bounds.y >= d.y && bounds.y + 30 <= d.y + d.height,
  );
}
