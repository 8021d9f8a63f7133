import { promises as fsp } from 'node:fs';

/** Whether a path exists (any kind of file). */
export async function fileExists(p: string): Promise<boolean> {
  try {
    await fsp.access(p);
    return true;
  } catch {
    return false;
  }
}
