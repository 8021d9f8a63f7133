/**
 * A small layout layer over pdfkit shared by the screening and person-check reports: numbered
 * section headings, label/value lines, bullets, a readable Markdown subset, and page header and
 * footer stamped on every page at the end. All text goes through displayText.
 */

import fs from 'node:fs';
import PDFDocument from 'pdfkit';
import { displayText } from './text';
import { humanTime } from '../plain-words';

export interface PdfOptions {
  /** Header line, e.g. "Screening report S1 #1042 · 7d0f…". */
  header: string;
  /** Stamped in the footer and the PDF metadata; from the caller's clock, so output is deterministic. */
  generatedAt: Date;
  /** The footer's "Generated …" as people read it (default: the instant in UTC, in words). */
  generatedLabel?: string;
  title: string;
  /** Path of a TrueType font with wide Unicode coverage (e.g. DejaVuSans.ttf); a "-Bold" sibling is used for bold when present. */
  unicodeFontPath?: string;
}

type Style = 'regular' | 'bold' | 'italic' | 'mono';

export interface InlineRun {
  text: string;
  bold: boolean;
  italic: boolean;
  code: boolean;
}

/** Inline Markdown: **bold**, __bold__, *italic*, _italic_ (at word boundaries), `code`, backslash escapes, [text](url). */
export function parseInline(source: string): InlineRun[] {
  const s = source.replace(/(?<!\\)\[([^\]\\]+)\]\(([^)\s]+)\)/g, '$1 ($2)');
  const runs: InlineRun[] = [];
  let bold = false;
  let italic = false;
  let code = false;
  let buf = '';
  const flush = () => {
    if (buf) runs.push({ text: buf, bold, italic, code });
    buf = '';
  };
  const isWord = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (code) {
      if (c === '`') {
        flush();
        code = false;
      } else buf += c;
      continue;
    }
    if (c === '\\' && i + 1 < s.length && /[\\*_`#[\]<>|()!\-.+]/.test(s[i + 1]!)) {
      buf += s[i + 1];
      i++;
      continue;
    }
    if ((c === '*' || c === '_') && s[i + 1] === c) {
      const closes = bold && i > 0 && s[i - 1] !== ' ';
      const opens = !bold && i + 2 < s.length && s[i + 2] !== ' ' && s.indexOf(c + c, i + 2) > 0;
      if (closes || opens) {
        flush();
        bold = !bold;
        i++;
        continue;
      }
    }
    if (c === '*' || c === '_') {
      const prev = s[i - 1];
      const next = s[i + 1];
      const opens = !italic && next !== undefined && next !== ' ' && !(c === '_' && isWord(prev)) && s.indexOf(c, i + 1) > 0;
      const closes = italic && prev !== undefined && prev !== ' ' && !(c === '_' && isWord(next));
      if (opens || closes) {
        flush();
        italic = !italic;
        continue;
      }
    }
    if (c === '`' && s.indexOf('`', i + 1) > 0) {
      flush();
      code = true;
      continue;
    }
    buf += c;
  }
  flush();
  return runs;
}

export const LEVEL_COLOURS: Record<string, string> = {
  low: '#1b7f3b',
  medium: '#b7791f',
  high: '#d9480f',
  critical: '#c92a2a',
};

export class PdfWriter {
  readonly doc: PDFKit.PDFDocument;
  private readonly unicode: boolean;
  /** With a Unicode font: whether it has a glyph for a character (else the text is transliterated). */
  private canDraw: ((ch: string) => boolean) | undefined;
  private readonly fonts: Record<Style, string>;
  private readonly done: Promise<Buffer>;

  constructor(private readonly options: PdfOptions) {
    this.doc = new PDFDocument({
      size: 'A4',
      margins: { top: 64, bottom: 64, left: 56, right: 56 },
      bufferPages: true,
      info: {
        Title: options.title,
        Author: 'Compliance screening service',
        Creator: 'compliance-screening-service',
        Producer: 'PDFKit',
        CreationDate: options.generatedAt,
        ModDate: options.generatedAt,
      },
    });
    const chunks: Buffer[] = [];
    this.done = new Promise((resolve, reject) => {
      this.doc.on('data', (c: Buffer) => chunks.push(c));
      this.doc.on('end', () => resolve(Buffer.concat(chunks)));
      this.doc.on('error', reject);
    });
    this.unicode = false;
    this.fonts = { regular: 'Helvetica', bold: 'Helvetica-Bold', italic: 'Helvetica-Oblique', mono: 'Courier' };
    if (options.unicodeFontPath && fs.existsSync(options.unicodeFontPath)) {
      const boldPath = options.unicodeFontPath.replace(/(\.[ot]tf)$/i, '-Bold$1');
      const italicPath = options.unicodeFontPath.replace(/(\.[ot]tf)$/i, '-Oblique$1');
      this.doc.registerFont('U', options.unicodeFontPath);
      this.doc.registerFont('U-Bold', fs.existsSync(boldPath) ? boldPath : options.unicodeFontPath);
      this.doc.registerFont('U-Italic', fs.existsSync(italicPath) ? italicPath : options.unicodeFontPath);
      this.fonts = { regular: 'U', bold: 'U-Bold', italic: 'U-Italic', mono: 'U' };
      this.unicode = true;
      this.doc.font('U');
      // pdfkit's embedded font wraps a fontkit font; ask it for glyph coverage
      const fontkitFont = (this.doc as unknown as { _font?: { font?: { hasGlyphForCodePoint?: (cp: number) => boolean } } })._font?.font;
      if (fontkitFont?.hasGlyphForCodePoint) {
        const has = fontkitFont.hasGlyphForCodePoint.bind(fontkitFont);
        this.canDraw = (ch) => has(ch.codePointAt(0)!);
      }
    }
    this.doc.font(this.fonts.regular).fontSize(10);
  }

  get usesUnicodeFont(): boolean {
    return this.unicode;
  }

  t(text: string | number | undefined | null): string {
    return displayText(text === undefined || text === null ? '' : String(text), this.unicode ? (this.canDraw ?? true) : false);
  }

  private get left(): number {
    return this.doc.page.margins.left;
  }
  private get width(): number {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right;
  }

  font(style: Style, size?: number): this {
    this.doc.font(this.fonts[style]);
    if (size) this.doc.fontSize(size);
    return this;
  }

  /** Starts a new page when less than `height` points remain. */
  ensureSpace(height: number): void {
    if (this.doc.y + height > this.doc.page.height - this.doc.page.margins.bottom) this.doc.addPage();
  }

  newPage(): void {
    this.doc.addPage();
  }

  title(text: string, size = 20): void {
    this.font('bold', size).doc.fillColor('#111111').text(this.t(text), this.left, undefined, { width: this.width });
    this.font('regular', 10);
    this.doc.moveDown(0.4);
  }

  section(number: number, title: string): void {
    this.ensureSpace(80);
    this.doc.moveDown(0.6);
    this.font('bold', 14).doc.fillColor('#0b3d91').text(`${number}. ${title}`, this.left, undefined, { width: this.width });
    const y = this.doc.y + 2;
    this.doc.moveTo(this.left, y).lineTo(this.left + this.width, y).lineWidth(0.7).strokeColor('#0b3d91').stroke();
    this.doc.moveDown(0.5);
    this.font('regular', 10).doc.fillColor('#111111');
  }

  subheading(text: string): void {
    this.ensureSpace(40);
    this.doc.moveDown(0.3);
    this.font('bold', 11).doc.fillColor('#111111').text(this.t(text), this.left, undefined, { width: this.width });
    this.font('regular', 10);
    this.doc.moveDown(0.15);
  }

  paragraph(text: string, opts: { style?: Style; colour?: string; size?: number; indent?: number } = {}): void {
    const indent = opts.indent ?? 0;
    this.font(opts.style ?? 'regular', opts.size ?? 10).doc.fillColor(opts.colour ?? '#111111');
    this.doc.text(this.t(text), this.left + indent, undefined, { width: this.width - indent });
    this.font('regular', 10).doc.fillColor('#111111');
  }

  /** "Label: value" with the label in bold. Empty values are written as "not available". */
  field(label: string, value: string | number | boolean | undefined | null, indent = 0): void {
    this.ensureSpace(this.doc.currentLineHeight(true) * 1.5);
    const shown = value === undefined || value === null || value === '' ? 'not available' : typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value);
    this.font('bold', 10).doc.fillColor('#111111').text(`${this.t(label)}: `, this.left + indent, undefined, { width: this.width - indent, continued: true });
    this.font('regular', 10).doc.text(this.t(shown));
  }

  /** One table row: cells at fixed offsets from the left margin, on one line. */
  row(cells: string[], offsets: number[], opts: { style?: Style; colour?: string } = {}): void {
    this.ensureSpace(16);
    const y = this.doc.y;
    this.font(opts.style ?? 'regular', 10).doc.fillColor(opts.colour ?? '#111111');
    cells.forEach((cell, i) => {
      const x = this.left + (offsets[i] ?? 0);
      const next = offsets[i + 1] ?? this.width;
      this.doc.text(this.t(cell), x, y, { width: next - (offsets[i] ?? 0) - 4, lineBreak: false, ellipsis: true });
    });
    this.doc.x = this.left;
    this.doc.y = y + this.doc.currentLineHeight(true);
    this.font('regular', 10).doc.fillColor('#111111');
  }

  bullet(text: string, level = 0): void {
    this.runs(parseInline(text), { indent: 12 + level * 14, bullet: level % 2 === 0 ? '•' : '-' });
  }

  spacer(lines = 0.4): void {
    this.doc.moveDown(lines);
  }

  /** Renders inline runs as one wrapped paragraph. */
  runs(runs: InlineRun[], opts: { indent?: number; bullet?: string; size?: number; boldAll?: boolean } = {}): void {
    const indent = opts.indent ?? 0;
    const size = opts.size ?? 10;
    const x = this.left + indent;
    const width = this.width - indent;
    // Keep a bullet with its text: drawn alone at the foot of a page, the text went to the next page
    // and the page break in between left a page holding only the bullet.
    this.font('regular', size);
    this.ensureSpace(Math.min(this.doc.heightOfString(this.t(runs.map((r) => r.text).join('')) || ' ', { width }), this.doc.currentLineHeight(true) * 3));
    if (opts.bullet) {
      const y = this.doc.y;
      this.font('regular', size).doc.text(opts.bullet, x - 10, y, { width: 10, lineBreak: false });
      this.doc.y = y;
    }
    const list = runs.length > 0 ? runs : [{ text: '', bold: false, italic: false, code: false }];
    list.forEach((run, i) => {
      const style: Style = run.code ? 'mono' : run.bold || opts.boldAll ? 'bold' : run.italic ? 'italic' : 'regular';
      this.font(style, run.code ? size - 1.5 : size);
      const last = i === list.length - 1;
      const text = this.t(run.text);
      if (i === 0) this.doc.text(text, x, undefined, { width, continued: !last });
      else this.doc.text(text, { continued: !last });
    });
    this.font('regular', 10);
  }

  /** A readable rendering of the Markdown the analyses produce: headings, bullets (nested), numbered lists, bold, italic. */
  markdown(markdown: string): void {
    let paragraph: string[] = [];
    const flush = () => {
      if (paragraph.length > 0) {
        this.runs(parseInline(paragraph.join(' ')));
        this.spacer(0.3);
      }
      paragraph = [];
    };
    for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
      const line = raw.replace(/\t/g, '    ');
      const heading = /^(#{1,6})\s+(.*)$/.exec(line);
      const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
      const numbered = /^(\s*)(\d+)[.)]\s+(.*)$/.exec(line);
      const quote = /^>\s?(.*)$/.exec(line);
      if (line.trim() === '') {
        flush();
      } else if (heading) {
        flush();
        const level = heading[1]!.length;
        this.ensureSpace(40);
        this.doc.moveDown(0.3);
        this.runs(parseInline(heading[2]!), { size: level === 1 ? 13 : level === 2 ? 11.5 : 10.5, boldAll: true });
        this.spacer(0.2);
      } else if (bullet && !/^\s*\*\*/.test(line)) {
        flush();
        this.bullet(bullet[2]!, Math.floor(bullet[1]!.length / 2));
      } else if (numbered) {
        flush();
        const level = Math.floor(numbered[1]!.length / 2);
        this.runs(parseInline(numbered[3]!), { indent: 16 + level * 14, bullet: `${numbered[2]}.` });
      } else if (quote) {
        flush();
        this.runs(parseInline(quote[1]!).map((r) => ({ ...r, italic: true })), { indent: 14 });
      } else if (/^\s*([-*_])\s*\1\s*\1[\s\-*_]*$/.test(line)) {
        flush();
        const y = this.doc.y + 3;
        this.doc.moveTo(this.left, y).lineTo(this.left + this.width, y).lineWidth(0.4).strokeColor('#999999').stroke();
        this.spacer(0.5);
      } else {
        paragraph.push(line.trim());
      }
    }
    flush();
  }

  /** Stamps header and "Page i of n" footer on every page, then returns the finished PDF. */
  async finish(): Promise<Buffer> {
    const range = this.doc.bufferedPageRange();
    const stamp = `Generated ${this.options.generatedLabel ?? humanTime(this.options.generatedAt.toISOString())}`;
    for (let i = range.start; i < range.start + range.count; i++) {
      this.doc.switchToPage(i);
      const { margins, width, height } = this.doc.page;
      const bottom = margins.bottom;
      this.doc.page.margins.bottom = 0; // writing inside the margin must not add a page
      this.font('regular', 8).doc.fillColor('#555555');
      this.doc.text(this.t(this.options.header), margins.left, 30, { width: width - margins.left - margins.right, align: 'left', lineBreak: false });
      this.doc.text(`${stamp}  |  Page ${i + 1} of ${range.count}  |  Confidential`, margins.left, height - 40, {
        width: width - margins.left - margins.right,
        align: 'center',
        lineBreak: false,
      });
      this.doc.page.margins.bottom = bottom;
    }
    this.doc.fillColor('#111111');
    this.doc.end();
    return this.done;
  }
}
