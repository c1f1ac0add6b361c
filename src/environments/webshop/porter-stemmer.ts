/**
 * The Porter stemmer as Lucene's `PorterStemFilter` runs it: Martin Porter's reference C
 * implementation (including its two documented departures from the 1980 paper: `bli`→`ble` instead
 * of `abli`→`able`, and the extra `logi`→`log` rule), applied to the UTF-16 code units of an already
 * lower-cased term. Words of one or two characters are left alone. Letters other than `a e i o u`
 * (and `y` after a consonant) count as consonants, digits and apostrophes included, as in the original.
 */
export function porterStem(word: string): string {
  if (word.length <= 2) return word;
  const s = new PorterState(word);
  s.step1ab();
  s.step1c();
  s.step2();
  s.step3();
  s.step4();
  s.step5();
  return s.b.slice(0, s.k + 1).join('');
}

class PorterState {
  readonly b: string[];
  k: number;
  j = 0;

  constructor(word: string) {
    this.b = word.split('');
    this.k = word.length - 1;
  }

  private at(i: number): string {
    return this.b[i] ?? '';
  }

  private cons(i: number): boolean {
    switch (this.at(i)) {
      case 'a':
      case 'e':
      case 'i':
      case 'o':
      case 'u':
        return false;
      case 'y':
        return i === 0 ? true : !this.cons(i - 1);
      default:
        return true;
    }
  }

  /** The number of consonant-vowel sequences in b[0..j]. */
  private m(): number {
    let n = 0;
    let i = 0;
    for (;;) {
      if (i > this.j) return n;
      if (!this.cons(i)) break;
      i++;
    }
    i++;
    for (;;) {
      for (;;) {
        if (i > this.j) return n;
        if (this.cons(i)) break;
        i++;
      }
      i++;
      n++;
      for (;;) {
        if (i > this.j) return n;
        if (!this.cons(i)) break;
        i++;
      }
      i++;
    }
  }

  private vowelInStem(): boolean {
    for (let i = 0; i <= this.j; i++) if (!this.cons(i)) return true;
    return false;
  }

  private doublec(j: number): boolean {
    if (j < 1) return false;
    if (this.at(j) !== this.at(j - 1)) return false;
    return this.cons(j);
  }

  private cvc(i: number): boolean {
    if (i < 2 || !this.cons(i) || this.cons(i - 1) || !this.cons(i - 2)) return false;
    const ch = this.at(i);
    return ch !== 'w' && ch !== 'x' && ch !== 'y';
  }

  private ends(suffix: string): boolean {
    const l = suffix.length;
    const o = this.k - l + 1;
    if (o < 0) return false;
    for (let i = 0; i < l; i++) if (this.at(o + i) !== suffix[i]) return false;
    this.j = this.k - l;
    return true;
  }

  private setto(replacement: string): void {
    const o = this.j + 1;
    for (let i = 0; i < replacement.length; i++) this.b[o + i] = replacement[i]!;
    this.k = this.j + replacement.length;
  }

  private r(replacement: string): void {
    if (this.m() > 0) this.setto(replacement);
  }

  /** Tries each [suffix, replacement] in order; the first suffix that ends the word decides. */
  private replaceFirst(rules: readonly (readonly [string, string])[]): void {
    for (const [suffix, replacement] of rules) {
      if (this.ends(suffix)) {
        this.r(replacement);
        return;
      }
    }
  }

  step1ab(): void {
    if (this.at(this.k) === 's') {
      if (this.ends('sses')) this.k -= 2;
      else if (this.ends('ies')) this.setto('i');
      else if (this.at(this.k - 1) !== 's') this.k--;
    }
    if (this.ends('eed')) {
      if (this.m() > 0) this.k--;
    } else if ((this.ends('ed') || this.ends('ing')) && this.vowelInStem()) {
      this.k = this.j;
      if (this.ends('at')) this.setto('ate');
      else if (this.ends('bl')) this.setto('ble');
      else if (this.ends('iz')) this.setto('ize');
      else if (this.doublec(this.k)) {
        const ch = this.at(this.k);
        this.k--;
        if (ch === 'l' || ch === 's' || ch === 'z') this.k++;
      } else if (this.m() === 1 && this.cvc(this.k)) this.setto('e');
    }
  }

  step1c(): void {
    if (this.ends('y') && this.vowelInStem()) this.b[this.k] = 'i';
  }

  step2(): void {
    if (this.k === 0) return;
    const rules = STEP2[this.at(this.k - 1)];
    if (rules) this.replaceFirst(rules);
  }

  step3(): void {
    const rules = STEP3[this.at(this.k)];
    if (rules) this.replaceFirst(rules);
  }

  step4(): void {
    if (this.k === 0) return;
    const suffixes = STEP4[this.at(this.k - 1)];
    if (!suffixes) return;
    let matched = false;
    for (const suffix of suffixes) {
      if (!this.ends(suffix)) continue;
      // "ion" is removed only after s or t.
      if (suffix === 'ion' && !(this.j >= 0 && (this.at(this.j) === 's' || this.at(this.j) === 't'))) continue;
      matched = true;
      break;
    }
    if (matched && this.m() > 1) this.k = this.j;
  }

  step5(): void {
    this.j = this.k;
    if (this.at(this.k) === 'e') {
      const a = this.m();
      if (a > 1 || (a === 1 && !this.cvc(this.k - 1))) this.k--;
    }
    if (this.at(this.k) === 'l' && this.doublec(this.k) && this.m() > 1) this.k--;
  }
}

type Rules = Readonly<Record<string, readonly (readonly [string, string])[]>>;

const STEP2: Rules = {
  a: [['ational', 'ate'], ['tional', 'tion']],
  c: [['enci', 'ence'], ['anci', 'ance']],
  e: [['izer', 'ize']],
  l: [['bli', 'ble'], ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous']],
  o: [['ization', 'ize'], ['ation', 'ate'], ['ator', 'ate']],
  s: [['alism', 'al'], ['iveness', 'ive'], ['fulness', 'ful'], ['ousness', 'ous']],
  t: [['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble']],
  g: [['logi', 'log']],
};

const STEP3: Rules = {
  e: [['icate', 'ic'], ['ative', ''], ['alize', 'al']],
  i: [['iciti', 'ic']],
  l: [['ical', 'ic'], ['ful', '']],
  s: [['ness', '']],
};

const STEP4: Readonly<Record<string, readonly string[]>> = {
  a: ['al'],
  c: ['ance', 'ence'],
  e: ['er'],
  i: ['ic'],
  l: ['able', 'ible'],
  n: ['ant', 'ement', 'ment', 'ent'],
  o: ['ion', 'ou'],
  s: ['ism'],
  t: ['ate', 'iti'],
  u: ['ous'],
  v: ['ive'],
  z: ['ize'],
};
