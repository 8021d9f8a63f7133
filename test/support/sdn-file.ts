/**
 * Edits the OFAC SDN CSV of a test's own copy of the lists (monitoring tests list, change and delist
 * people, then reload): `edit` gets the data lines and returns the new ones; the file's CRLF line ends,
 * Latin-1 encoding and trailing EOF byte are kept, as OFAC publishes it.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A test's own copy of the bundled OFAC SDN list (in a new temporary directory named from `prefix`),
 * and the service environment that loads only it and keeps its versions beside it.
 */
export function copySdnList(prefix: string): { listsDir: string; env: { LISTS_DIR: string; LISTS_ONLY: string; LISTS_DATA_DIR: string } } {
  const listsDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  cpSync(path.resolve('lists/ofac_sdn'), path.join(listsDir, 'ofac_sdn'), { recursive: true });
  return { listsDir, env: { LISTS_DIR: listsDir, LISTS_ONLY: 'ofac_sdn', LISTS_DATA_DIR: path.join(listsDir, 'versions') } };
}

export function editSdnCsv(listsDir: string, edit: (lines: string[]) => string[]): void {
  const file = path.join(listsDir, 'ofac_sdn', 'sdn.csv');
  const raw = readFileSync(file, 'latin1');
  const eof = raw.endsWith('\x1a') ? '\x1a' : '';
  const lines = raw.slice(0, raw.length - eof.length).split('\r\n').filter((l) => l.length > 0);
  writeFileSync(file, `${edit(lines).join('\r\n')}\r\n${eof}`, 'latin1');
}

/** One SDN data line of an individual with a date of birth in the list's remarks (e.g. "01 Jan 1970"). */
export function sdnPerson(id: number, name: string, dob: string): string {
  return `${id},"${name}","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB ${dob}."`;
}
