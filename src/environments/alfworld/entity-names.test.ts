import { describe, expect, it } from 'vitest';

import { demangleEntityNames } from './entity-names.js';

describe('demangleEntityNames', () => {
  it('numbers instances from the top in sorted-id order and appends basin', () => {
    const names = demangleEntityNames([
      'drawer_bar__plus_01_dot_00',
      'drawer_bar__minus_02_dot_00',
      'drawer_bar__minus_01_dot_00',
      'sink_bar__minus_01_dot_99_bar__plus_00_dot_98_bar_sinkbasin',
      'sink_bar__minus_00_dot_10',
      'loc_bar_1_bar_0_bar_3_bar_60',
      'loc_bar__minus_8_bar_8_bar_0_bar_60',
      'cabinettype',
      'agent1',
    ]);
    expect(Object.fromEntries(names)).toEqual({
      drawer_bar__minus_01_dot_00: 'drawer 3',
      drawer_bar__minus_02_dot_00: 'drawer 2',
      drawer_bar__plus_01_dot_00: 'drawer 1',
      'sink_bar__minus_01_dot_99_bar__plus_00_dot_98_bar_sinkbasin': 'sinkbasin 1',
      sink_bar__minus_00_dot_10: 'sink 1',
      loc_bar_1_bar_0_bar_3_bar_60: 'loc 2',
      loc_bar__minus_8_bar_8_bar_0_bar_60: 'loc 1',
      cabinettype: 'cabinettype',
      agent1: 'agent1',
    });
  });
});
