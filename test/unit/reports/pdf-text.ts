import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Writes the PDF to a temporary file and extracts its text with poppler's pdftotext. */
export function pdfText(pdf: Buffer, name: string): { text: string; flat: string; pages: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-test-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, pdf);
  try {
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    const pages = Number(/Pages:\s+(\d+)/.exec(info)?.[1] ?? 0);
    return { text, flat: text.replace(/\s+/g, ' '), pages };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
