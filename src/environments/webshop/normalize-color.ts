/**
 * WebShop's colour normalisation for option matching (`engine/normalize.py`): an option value becomes
 * the first word of a fixed colour list, searched in list order, that occurs in it as a substring
 * ("light blue" → "blue", because "blue" precedes "light"; "tan" also matches inside "titanium").
 * Values without a colour word are returned unchanged.
 */
export function normalizeColor(value: string): string {
  for (const color of COLOR_SET) if (value.includes(color)) return color;
  return value;
}

/** The colour words, in the original's search order. */
export const COLOR_SET: readonly string[] = [
  'alabaster', 'apricot', 'aqua', 'ash', 'asphalt', 'azure', 'banana', 'beige', 'black', 'blue', 'blush',
  'bordeaux', 'bronze', 'brown', 'burgundy', 'camel', 'camo', 'caramel', 'champagne', 'charcoal', 'cheetah',
  'chestnut', 'chocolate', 'christmas', 'coffee', 'cognac', 'copper', 'coral', 'cranberry', 'cream', 'crystal',
  'dark', 'denim', 'eggplant', 'elephant', 'espresso', 'fuchsia', 'gold', 'granite', 'grape', 'graphite',
  'grass', 'gray', 'green', 'grey', 'heather', 'indigo', 'ivory', 'ivy', 'khaki', 'lavender', 'lemon',
  'leopard', 'light', 'lilac', 'lime', 'magenta', 'maroon', 'mauve', 'merlot', 'midnight', 'mint', 'mocha',
  'multicolor', 'mushroom', 'mustard', 'natural', 'navy', 'nude', 'olive', 'orange', 'peach', 'pewter', 'pink',
  'plum', 'purple', 'rainbow', 'red', 'rose', 'royal', 'rust', 'sand', 'sapphire', 'seashell', 'silver', 'skull',
  'slate', 'steel', 'stone', 'stonewash', 'sunflower', 'tan', 'taupe', 'teal', 'tiger', 'turquoise', 'violet',
  'walnut', 'wheat', 'white', 'wine', 'yellow',
];
