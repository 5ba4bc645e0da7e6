/**
 * The `room` first of whatever is offered to it, in `order`, kept sorted as they come (equal ones in
 * the order offered, as a stable sort gives them). Ranking thousands of entries for a few places
 * costs one comparison with the last kept for most of them, never a sort of them all; `worst` lets
 * a caller skip an entry before paying for its key.
 */
export class TopN<T> {
  readonly kept: T[] = [];

  constructor(
    private readonly room: number,
    private readonly order: (a: T, b: T) => number,
  ) {}

  /** The last kept once every place is taken: an entry that does not come before it is not kept. */
  get worst(): T | undefined {
    return this.kept.length >= this.room ? this.kept[this.kept.length - 1] : undefined;
  }

  offer(entry: T): void {
    const worst = this.worst;
    if (this.room <= 0 || (worst !== undefined && this.order(entry, worst) >= 0)) return;
    let lo = 0;
    let hi = this.kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.order(entry, this.kept[mid] as T) < 0) hi = mid;
      else lo = mid + 1;
    }
    this.kept.splice(lo, 0, entry);
    if (this.kept.length > this.room) this.kept.pop();
  }
}
