/** The frame seqs an item was decoded from (see SeqList). */

/**
 * The frame seqs an item was decoded from, in arrival order. An immutable list
 * with O(1) amortised `append`: a message merged from 100k chunks must not copy
 * a 100k-element array per chunk. Successive lists share one buffer; each reads
 * only its own prefix, so older states never see later seqs.
 */
export class SeqList implements Iterable<number> {
  readonly #buf: number[];
  readonly #sorted: boolean;
  readonly length: number;

  private constructor(buf: number[], length: number, sorted: boolean) {
    this.#buf = buf;
    this.length = length;
    this.#sorted = sorted;
  }

  static of(...seqs: number[]): SeqList {
    let sorted = true;
    for (let i = 1; i < seqs.length; i++) if (seqs[i]! <= seqs[i - 1]!) sorted = false;
    return new SeqList(seqs, seqs.length, sorted);
  }

  get first(): number | undefined {
    return this.length > 0 ? this.#buf[0] : undefined;
  }

  get last(): number | undefined {
    return this.length > 0 ? this.#buf[this.length - 1] : undefined;
  }

  append(seq: number): SeqList {
    const last = this.last;
    const sorted = this.#sorted && (last === undefined || seq > last);
    // Someone already appended past our end (a branch from an older state): copy our prefix.
    const buf = this.#buf.length === this.length ? this.#buf : this.#buf.slice(0, this.length);
    buf.push(seq);
    return new SeqList(buf, this.length + 1, sorted);
  }

  includes(seq: number): boolean {
    const buf = this.#buf;
    if (!this.#sorted) {
      for (let i = 0; i < this.length; i++) if (buf[i] === seq) return true;
      return false;
    }
    let lo = 0;
    let hi = this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = buf[mid]!;
      if (v === seq) return true;
      if (v < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  toArray(): number[] {
    return this.#buf.slice(0, this.length);
  }

  toJSON(): number[] {
    return this.toArray();
  }

  *[Symbol.iterator](): Iterator<number> {
    for (let i = 0; i < this.length; i++) yield this.#buf[i]!;
  }
}
