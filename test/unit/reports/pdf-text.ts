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

/** The text of each page, in order (pdftotext page by page). */
export function pdfPages(pdf: Buffer, name: string): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-pages-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, pdf);
  try {
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    const count = Number(/Pages:\s+(\d+)/.exec(info)?.[1] ?? 0);
    return Array.from({ length: count }, (_, i) =>
      execFileSync('pdftotext', ['-enc', 'UTF-8', '-f', String(i + 1), '-l', String(i + 1), file, '-'], { encoding: 'utf8' }),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Renders page 1 to a PNG under test-artifacts/ (kept after the run, for a person to look at). */
export function savePageOnePng(pdf: Buffer, name: string): string {
  const dir = path.resolve(import.meta.dirname, '../../../test-artifacts');
  fs.mkdirSync(dir, { recursive: true });
  const pdfFile = path.join(dir, `${name}.pdf`);
  fs.writeFileSync(pdfFile, pdf);
  const prefix = path.join(dir, `${name}-page1`);
  execFileSync('pdftoppm', ['-f', '1', '-l', '1', '-r', '72', '-png', '-singlefile', pdfFile, prefix]);
  return `${prefix}.png`;
}
