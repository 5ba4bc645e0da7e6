/**
 * The words of a question while they are being read: each rule of the reader claims the words it
 * understood, so at the end the words nobody claimed are exactly what was not understood.
 */
interface Slot {
  words: Set<string>;
  number: boolean;
  optional: boolean;
}

/** Patterns are a fixed set of literals in the reader: each is parsed once. */
const PATTERNS = new Map<string, Slot[]>();

function slotsOf(pattern: string): Slot[] {
  let slots = PATTERNS.get(pattern);
  if (!slots) {
    slots = pattern.split(" ").map((slot) => {
      const optional = slot.endsWith("?");
      const alternatives = (optional ? slot.slice(0, -1) : slot).split("|");
      return {
        words: new Set(alternatives.filter((a) => a !== "#")),
        number: alternatives.includes("#"),
        optional,
      };
    });
    PATTERNS.set(pattern, slots);
  }
  return slots;
}

/** Every word of every pattern read so far: the words the rules' phrases are made of. */
export function patternWords(): Set<string> {
  const out = new Set<string>();
  for (const slots of PATTERNS.values()) for (const slot of slots) for (const w of slot.words) out.add(w);
  return out;
}

export class Sentence {
  readonly words: readonly string[];
  /** The words as typed (before corrections), for messages that quote them. */
  readonly typed: readonly string[];
  private readonly claimed: boolean[];

  constructor(words: readonly string[], typed: readonly string[] = words) {
    this.words = words;
    this.typed = typed;
    this.claimed = words.map(() => false);
  }

  get length(): number {
    return this.words.length;
  }

  /** The word at `i` when nobody claimed it yet. */
  free(i: number): string | undefined {
    return i >= 0 && i < this.words.length && !this.claimed[i] ? this.words[i] : undefined;
  }

  isClaimed(i: number): boolean {
    return this.claimed[i] === true;
  }

  claim(i: number, n = 1): void {
    for (let k = i; k < i + n && k < this.words.length; k++) this.claimed[k] = true;
  }

  /**
   * How many words from `i` match `pattern`, or -1. The pattern is space-separated slots; a slot is
   * `|`-separated alternatives, optional with a trailing `?`; `#` matches any number.
   *
   * @example s.match(0, "compared|comparing with|to?") // 2 for "compared with …", 1 for "comparing …"
   */
  match(i: number, pattern: string): number {
    let at = i;
    for (const slot of slotsOf(pattern)) {
      const w = this.free(at);
      const ok = w !== undefined && (slot.words.has(w) || (slot.number && /^\d+$/.test(w)));
      if (ok) at++;
      else if (!slot.optional) return -1;
    }
    return at - i;
  }

  /** Index of the first free word at or after `from` that is one of `options`, or -1. */
  find(options: readonly string[], from = 0): number {
    for (let i = from; i < this.words.length; i++) {
      const w = this.free(i);
      if (w !== undefined && options.includes(w)) return i;
    }
    return -1;
  }

  /** Every free word, in order, with its index. */
  unclaimed(): { i: number; word: string; typed: string }[] {
    const out: { i: number; word: string; typed: string }[] = [];
    this.words.forEach((word, i) => {
      if (!this.claimed[i]) out.push({ i, word, typed: this.typed[i] ?? word });
    });
    return out;
  }
}
