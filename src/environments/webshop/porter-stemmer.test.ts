import { describe, expect, it } from 'vitest';

import { porterStem } from './porter-stemmer.js';

// Word → stem pairs of Porter's reference implementation (the worked examples of the 1980 paper run
// through all steps, plus the two departures of the reference C code that Lucene ports).
const CASES: Record<string, string> = {
  caresses: 'caress', ponies: 'poni', ties: 'ti', caress: 'caress', cats: 'cat',
  feed: 'feed', agreed: 'agre', plastered: 'plaster', bled: 'bled', motoring: 'motor', sing: 'sing',
  conflated: 'conflat', troubled: 'troubl', sized: 'size', hopping: 'hop', tanned: 'tan',
  falling: 'fall', hissing: 'hiss', fizzed: 'fizz', failing: 'fail', filing: 'file',
  happy: 'happi', sky: 'sky',
  relational: 'relat', conditional: 'condit', rational: 'ration', valenci: 'valenc', hesitanci: 'hesit',
  digitizer: 'digit', conformabli: 'conform', radicalli: 'radic', differentli: 'differ', vileli: 'vile',
  analogousli: 'analog', vietnamization: 'vietnam', predication: 'predic', operator: 'oper',
  feudalism: 'feudal', decisiveness: 'decis', hopefulness: 'hope', callousness: 'callous',
  formaliti: 'formal', sensitiviti: 'sensit', sensibiliti: 'sensibl',
  triplicate: 'triplic', formative: 'form', formalize: 'formal', electriciti: 'electr',
  electrical: 'electr', hopeful: 'hope', goodness: 'good',
  revival: 'reviv', allowance: 'allow', inference: 'infer', airliner: 'airlin', gyroscopic: 'gyroscop',
  adjustable: 'adjust', defensible: 'defens', irritant: 'irrit', replacement: 'replac',
  adjustment: 'adjust', dependent: 'depend', adoption: 'adopt', homologou: 'homolog', communism: 'commun',
  activate: 'activ', angulariti: 'angular', homologous: 'homolog', effective: 'effect', bowdlerize: 'bowdler',
  probate: 'probat', rate: 'rate', cease: 'ceas', controll: 'control', roll: 'roll',
  generalizations: 'gener', oscillators: 'oscil',
  // The reference code's departures from the paper.
  archaeologi: 'archaeolog', sensibli: 'sensibl',
  // Product vocabulary.
  running: 'run', shoes: 'shoe', women: 'women', dresses: 'dress', batteries: 'batteri', wireless: 'wireless',
};

describe('porterStem', () => {
  it.each(Object.entries(CASES))('%s → %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });

  it('leaves words of one or two characters alone', () => {
    expect(porterStem('is')).toBe('is');
    expect(porterStem('as')).toBe('as');
    expect(porterStem('')).toBe('');
  });

  it('treats digits and apostrophes as consonants', () => {
    expect(porterStem('6.76')).toBe('6.76');
    expect(porterStem("l'eau")).toBe("l'eau");
    expect(porterStem('4k')).toBe('4k');
  });
});
