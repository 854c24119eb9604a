/**
 * A running exact sum for long columns of amounts (reports over a hundred thousand transactions): it
 * keeps one BigInt at the largest scale seen so far instead of normalizing after every addition.
 */
import { normalize, type Decimal } from './decimal';

const POWERS: bigint[] = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i));
const power = (n: number): bigint => POWERS[n] ?? 10n ** BigInt(n);

export class DecimalSum {
  private units = 0n;
  private scale = 0;

  add(d: Decimal): void {
    if (d.scale > this.scale) {
      this.units *= power(d.scale - this.scale);
      this.scale = d.scale;
    }
    this.units += d.scale === this.scale ? d.units : d.units * power(this.scale - d.scale);
  }

  subtract(d: Decimal): void {
    this.add({ units: -d.units, scale: d.scale });
  }

  get value(): Decimal {
    return normalize({ units: this.units, scale: this.scale });
  }
}
