/** Try the CLI against the real lists: `npx tsx bench/screening/cli-demo.ts screen "Vladimir Putin" --dob 1952 --country RU` */
import { Command } from 'commander';
import { registerScreenCommands } from '../../src/cli/screen';
import { loadScreeningEngine } from '../../src/screening/engine';
import { listsFromRoot } from '../../src/screening/lists/index';

const program = new Command().name('svc');
registerScreenCommands(program, {
  loadEngine: async () => (await loadScreeningEngine({ lists: listsFromRoot(process.env.LISTS_DIR ?? '../shared/data', { includeOptIn: true }) }, { progressBar: false })).engine,
});
await program.parseAsync(process.argv);
