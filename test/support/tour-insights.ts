/** The app API tour's part for statistics, reports and search (see app-api-tour.ts). */
import type { TourCall } from './app-api-tour';

export async function tourInsights(ok: TourCall, at: { carId: number; refuelingId: number; accountId: number }): Promise<void> {
  void ok;
  void at;
}
