import { describe, expect, it } from 'vitest';

import { spacyLikeTokens, titleNouns } from './title-nouns.js';

describe('spacyLikeTokens', () => {
  it('splits punctuation, possessives and infixes like spaCy, keeping abbreviations', () => {
    expect(spacyLikeTokens("Men's Unisex-Adult D.o.n. Shoe (Black), DVD/VCR 6.7oz")).toEqual([
      'Men', "'s", 'Unisex', '-', 'Adult', 'D.o.n.', 'Shoe', '(', 'Black', ')', ',', 'DVD', '/', 'VCR', '6.7oz',
    ]);
  });
});

describe('titleNouns (approximation of spaCy NOUN/PROPN)', () => {
  it('keeps brand, model and product words; drops numbers, function words and participles', () => {
    expect(titleNouns('Saireed UL Listed 2 Prong Power Cord for JBL Bar 3.1 Bar 2.1 Channel 4K Ultra HD Soundbar')).toEqual([
      'saireed', 'ul', 'prong', 'power', 'cord', 'jbl', 'bar', 'bar', 'channel', 'ultra', 'hd', 'soundbar',
    ]);
  });

  it('drops common adjectives and adjective suffixes but keeps listed nouns with those endings', () => {
    expect(titleNouns('Portable Waterproof Wireless Speaker with Cable and Table Stand, Large')).toEqual(['speaker', 'cable', 'table', 'stand']);
    expect(titleNouns('Beautifully Embroidered Bed Sheet')).toEqual(['bed', 'sheet']);
  });
});
