import { Help } from 'commander';
import { describe, expect, it } from 'vitest';

import { COMMAND_CATALOG, reachableCommands } from './command-catalog.js';
import { buildProgram } from './main.js';

describe('command catalog', () => {
  it('lists every command as its module registers it: same order, names, terms and descriptions', async () => {
    const program = await buildProgram();
    const help = new Help();
    const registered = program.commands.map((command) => ({ name: command.name(), term: help.subcommandTerm(command), description: command.description() }));
    expect(COMMAND_CATALOG.map(({ name, term, description }) => ({ name, term, description }))).toEqual(registered);
  });

  it('gives the same top-level help with no command loaded as with all of them', async () => {
    const full = (await buildProgram()).helpInformation();
    const listed = (await buildProgram(undefined, new Set())).helpInformation();
    expect(listed).toBe(full);
    expect(listed).toContain('report [options] <run>');
  });

  it('loads only the commands a command line reaches', async () => {
    const program = await buildProgram(undefined, new Set(['report']));
    const report = program.commands.find((command) => command.name() === 'report')!;
    const run = program.commands.find((command) => command.name() === 'run')!;
    expect(report.options.length).toBeGreaterThan(0);
    expect(run.options).toEqual([]);
  });
});

describe('reachableCommands', () => {
  it.each([
    [['--version'], []],
    [['--help'], []],
    [['run', '--bench', 'dbbench'], ['run']],
    [['-h', 'report', 'x'], ['report']],
    [['help', 'export'], ['export']],
    [['help', '-h', 'splits'], ['splits']],
    [['--', 'probe'], ['probe']],
    [['nope', 'run'], []],
    [['env', 'check', 'dbbench'], ['env']],
  ])('%j reaches %j', (argv, expected) => {
    expect([...reachableCommands(argv)]).toEqual(expected);
  });
});
