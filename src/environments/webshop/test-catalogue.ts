import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A small made-up WebShop data folder for tests (not real catalogue data): 24 products in the raw
 * file format, their attribute file with synthetic instructions for three of them, and, on request,
 * a human-instruction file. Used by tests only.
 */
export function writeTestCatalogue(options: { human?: boolean } = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'webshop-test-'));
  const products: Record<string, unknown>[] = [
    raw('B000SHOE01', 'Trail Running Shoe for Men, Breathable Mesh', '$49.99', {
      Color: [{ value: 'Black/Red' }, { value: 'Navy Blue' }],
      Size: [{ value: ' 9 ' }, { value: '10' }, { value: '11' }],
    }, 'running shoes', 'Clothing › Men › Shoes › Running'),
    raw('B000SHOE02', 'Trail Running Shoe for Women', '$39.99 - $59.99', { size: [{ value: '7' }, { value: '8' }] }, 'running shoes', 'Clothing › Women › Shoes › Running'),
    raw('B000TEA003', 'Tea Tree Oil Shampoo 12 Fl Oz', '$12.00', '', 'shampoo', 'Beauty › Hair Care › Shampoo'),
  ];
  for (let i = 4; i <= 24; i++) {
    products.push(raw(`B0000GEN${String(i).padStart(2, '0')}`, `Generic Running Accessory Number ${i}`, `$${i}.50`, '', 'accessories', 'Sports › Accessories'));
  }
  products.push(raw('nan', 'Broken Record', '$1.00', '', 'x', 'x'));
  products.push(raw('B000SHOE01', 'Duplicate Of The First Shoe', '$1.00', '', 'x', 'x'));
  writeFileSync(path.join(dir, 'items_shuffle_1000.json'), JSON.stringify(products));
  const attributes: Record<string, unknown> = {
    B000SHOE01: { attributes: ['breathable mesh', 'rubber sole'], instruction: 'i want breathable running shoes', instruction_attributes: ['breathable mesh'] },
    B000SHOE02: { attributes: ['lightweight'], instruction: 'find me lightweight trail shoes', instruction_attributes: ['lightweight'] },
    B000TEA003: { attributes: ['tea tree'], instruction: 'tea tree shampoo please', instruction_attributes: ['tea tree'] },
  };
  writeFileSync(path.join(dir, 'items_ins_v2_1000.json'), JSON.stringify(attributes));
  if (options.human) {
    const human = {
      B000SHOE01: [
        { instruction: 'I need black running shoes in size 10.', instruction_attributes: ['breathable mesh'], instruction_options: ['black', '10'] },
        { instruction: 'no attributes here', instruction_attributes: [], instruction_options: [] },
      ],
      B000TEA003: [{ instruction: '...tea tree shampoo...', instruction_attributes: ['tea tree'], instruction_options: [] }],
    };
    writeFileSync(path.join(dir, 'items_human_ins.json'), JSON.stringify(human));
  }
  return dir;
}

function raw(asin: string, name: string, pricing: string, options: unknown, query: string, productCategory: string): Record<string, unknown> {
  return {
    asin,
    name,
    full_description: `${name}. Made with care.`,
    small_description: [`About ${name}`, 'Second bullet'],
    pricing,
    customization_options: options,
    category: query.split(' ')[0],
    query: ` ${query.toUpperCase()} `,
    product_category: productCategory,
    images: ['https://example.invalid/image.jpg'],
  };
}
