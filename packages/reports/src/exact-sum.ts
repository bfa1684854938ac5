/** Integers below this in size are added as numbers. */
const SMALL = 2 ** 50;
/** The running number is moved into the BigInt past this: adding one more small value stays below 2^53. */
const MOVE_AT = 2 ** 52;

/**
 * An exact sum of integers (nano-USD, pico-USD): small ones (as summaries hold almost all of them) are
 * added as numbers while the running number is surely below 2^53, then moved into a BigInt; larger ones,
 * and decimal text, go to the BigInt at once. A report sums hundreds of thousands of cells: a BigInt per
 * cell was most of its time.
 */
export class ExactSum {
  private small = 0;
  private big = 0n;

  /** A safe integer or decimal text. */
  add(value: number | string): void {
    if (typeof value === "string" || value >= SMALL || value <= -SMALL) {
      this.big += BigInt(value);
      return;
    }
    this.small += value;
    if (this.small > MOVE_AT || this.small < -MOVE_AT) {
      this.big += BigInt(this.small);
      this.small = 0;
    }
  }

  addBig(value: bigint): void {
    this.big += value;
  }

  value(): bigint {
    return this.big + BigInt(this.small);
  }
}
