// Entry of a batch worker thread. Node 20 does not apply the parent's `--import tsx` loader to a
// worker's own TypeScript entry, so the worker registers tsx itself, then loads worker.ts.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
