// Entry of the list matching thread (see matching-thread.ts). Module loader hooks do not carry over
// into worker threads, so the TypeScript loader is registered here before the worker's code loads.
import { register } from 'tsx/esm/api';

register();
await import('./matching-thread-worker.ts');
