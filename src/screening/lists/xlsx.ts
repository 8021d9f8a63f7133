import yauzl from 'yauzl';
import sax from 'sax';
import { ListParseError } from './common';
import type { CsvRow } from './csv';

/**
 * A streaming reader for the first worksheet of an .xlsx workbook, yielding rows in the same shape
 * as readCsv so one parser serves a list's CSV and xlsx forms (OFSI publishes ConList as both).
 *
 * An .xlsx is a ZIP of XML parts: the worksheet (`xl/worksheets/sheet1.xml`, the big one) is
 * streamed through sax one row at a time; the shared-string table (`xl/sharedStrings.xml`) is read
 * first, because cells refer to it by index; `xl/styles.xml` tells which numeric cells are dates.
 * Built on yauzl and sax, already used for the OFAC Enhanced ZIP and the UN XML, rather than a
 * general spreadsheet library: only cell values are needed, never formulas, styles or writing.
 */
export async function* readXlsxRows(file: string, opts: { onBytes?: (n: number) => void } = {}): AsyncGenerator<CsvRow> {
  const zip = await openZip(file);
  try {
    const entries = await zipEntries(zip);
    const sheetName = firstSheet(entries);
    if (!sheetName) throw new ListParseError(file, 'no worksheet in the workbook (xl/worksheets/*.xml)', undefined, 'xlsx');
    const shared = entries.has('xl/sharedStrings.xml') ? await sharedStrings(zip, entries.get('xl/sharedStrings.xml')!, file) : [];
    const dateStyles = entries.has('xl/styles.xml') ? await dateStyleIndexes(zip, entries.get('xl/styles.xml')!, file) : new Set<number>();
    const sheet = entries.get(sheetName)!;
    yield* sheetRows(await openEntry(zip, sheet), file, shared, dateStyles);
    opts.onBytes?.(sheet.compressedSize);
  } finally {
    zip.close();
  }
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (err, zip) =>
      err || !zip ? reject(new ListParseError(file, `not a readable xlsx (ZIP): ${err?.message}`, undefined, 'xlsx')) : resolve(zip),
    ),
  );
}

function zipEntries(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    const out = new Map<string, yauzl.Entry>();
    zip.on('entry', (e: yauzl.Entry) => {
      out.set(e.fileName, e);
      zip.readEntry();
    });
    zip.on('end', () => resolve(out));
    zip.on('error', reject);
    zip.readEntry();
  });
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) => zip.openReadStream(entry, (err, rs) => (err || !rs ? reject(err) : resolve(rs))));
}

/** sheet1.xml when present, else the first worksheet part by name. */
function firstSheet(entries: Map<string, yauzl.Entry>): string | undefined {
  if (entries.has('xl/worksheets/sheet1.xml')) return 'xl/worksheets/sheet1.xml';
  return [...entries.keys()].filter((n) => /^xl\/worksheets\/[^/]+\.xml$/.test(n)).sort()[0];
}

function saxParse(stream: NodeJS.ReadableStream, file: string, handlers: (p: sax.SAXStream) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = sax.createStream(true, { trim: false });
    handlers(p);
    p.on('error', (err: Error) => reject(new ListParseError(file, `malformed xlsx XML: ${err.message.split('\n')[0]}`, undefined, 'xlsx')));
    p.on('end', () => resolve());
    stream.on('error', reject);
    stream.pipe(p);
  });
}

const local = (name: string) => name.slice(name.indexOf(':') + 1);

/** The shared-string table: the text of each `<si>` (rich-text runs concatenated, phonetic runs left out). */
async function sharedStrings(zip: yauzl.ZipFile, entry: yauzl.Entry, file: string): Promise<string[]> {
  const out: string[] = [];
  let cur: string | undefined;
  let inT = false;
  let inPhonetic = false;
  await saxParse(await openEntry(zip, entry), file, (p) => {
    p.on('opentag', (t) => {
      const n = local(t.name);
      if (n === 'si') cur = '';
      else if (n === 'rPh') inPhonetic = true;
      else if (n === 't' && !inPhonetic) inT = true;
    });
    p.on('closetag', (name) => {
      const n = local(name);
      if (n === 'si') {
        out.push(cur ?? '');
        cur = undefined;
      } else if (n === 'rPh') inPhonetic = false;
      else if (n === 't') inT = false;
    });
    p.on('text', (s) => {
      if (inT && cur !== undefined) cur += s;
    });
  });
  return out;
}

/** Built-in date formats (ECMA-376 §18.8.30: ids 14–22, 45–47) and custom ones that show a day, month or year. */
async function dateStyleIndexes(zip: yauzl.ZipFile, entry: yauzl.Entry, file: string): Promise<Set<number>> {
  const customDate = new Set<number>();
  const xfFormats: number[] = [];
  let inCellXfs = false;
  await saxParse(await openEntry(zip, entry), file, (p) => {
    p.on('opentag', (t) => {
      const n = local(t.name);
      const a = t.attributes as Record<string, string>;
      if (n === 'numFmt' && /[dmy]/i.test((a.formatCode ?? '').replace(/\[[^\]]*\]|"[^"]*"/g, ''))) customDate.add(Number(a.numFmtId));
      else if (n === 'cellXfs') inCellXfs = true;
      else if (n === 'xf' && inCellXfs) xfFormats.push(Number(a.numFmtId ?? 0));
    });
    p.on('closetag', (name) => {
      if (local(name) === 'cellXfs') inCellXfs = false;
    });
  });
  const isDate = (id: number) => (id >= 14 && id <= 22) || (id >= 45 && id <= 47) || customDate.has(id);
  return new Set(xfFormats.flatMap((id, i) => (isDate(id) ? [i] : [])));
}

/** Column letters to a 0-based index: A → 0, Z → 25, AA → 26. */
export function columnIndex(ref: string): number {
  let n = 0;
  for (const ch of ref) {
    const c = ch.charCodeAt(0);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
  }
  return n - 1;
}

/** An Excel serial day number (1900 date system) as dd/mm/yyyy, the way the CSV form writes dates. */
export function serialToDmy(serial: number): string {
  const ms = Math.round((serial - 25569) * 86400000);
  const d = new Date(ms);
  const dd = String(d.getUTCDate()).padStart(2, '0');
  const mm = String(d.getUTCMonth() + 1).padStart(2, '0');
  return `${dd}/${mm}/${d.getUTCFullYear()}`;
}

/**
 * The worksheet's rows, each as an array of cell texts by column (missing cells are ""). `line` is
 * the spreadsheet row number, so a parse error names the row an operator sees in Excel.
 */
async function* sheetRows(stream: NodeJS.ReadableStream, file: string, shared: string[], dateStyles: Set<number>): AsyncGenerator<CsvRow> {
  const ready: CsvRow[] = [];
  let failure: Error | undefined;
  let row: string[] | undefined;
  let rowNo = 0;
  let cell: { col: number; type: string; style: number } | undefined;
  let value = '';
  let inValue = false;

  const p = sax.parser(true, { trim: false });
  p.onopentag = (t) => {
    const n = local(t.name);
    const a = t.attributes as Record<string, string>;
    if (n === 'row') {
      rowNo = a.r ? Number(a.r) : rowNo + 1;
      row = [];
    } else if (n === 'c' && row) {
      cell = { col: a.r ? columnIndex(a.r) : row.length, type: a.t ?? 'n', style: Number(a.s ?? 0) };
      value = '';
    } else if ((n === 'v' || n === 't') && cell) {
      inValue = true;
    }
  };
  p.ontext = (s) => {
    if (inValue) value += s;
  };
  p.oncdata = p.ontext;
  p.onclosetag = (name) => {
    const n = local(name);
    if (n === 'v' || n === 't') inValue = false;
    else if (n === 'c' && cell && row) {
      let text = value;
      if (cell.type === 's') {
        const i = Number(value);
        if (!Number.isInteger(i) || i < 0 || i >= shared.length) {
          failure ??= new ListParseError(file, `cell refers to shared string ${value}, the table has ${shared.length}`, rowNo, 'xlsx');
        } else text = shared[i];
      } else if (cell.type === 'b') text = value === '1' ? 'TRUE' : 'FALSE';
      else if (cell.type === 'n' && value !== '' && dateStyles.has(cell.style)) text = serialToDmy(Number(value));
      while (row.length < cell.col) row.push('');
      row[cell.col] = text;
      cell = undefined;
    } else if (n === 'row' && row) {
      ready.push({ fields: row, line: rowNo });
      row = undefined;
    }
  };
  p.onerror = (err: Error) => {
    failure ??= new ListParseError(file, `malformed worksheet XML: ${err.message.split('\n')[0]}`, rowNo, 'xlsx');
  };
  // Pulled chunk by chunk: the rows of one chunk are handed out before the next is read (back-pressure).
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    p.write(decoder.decode(chunk, { stream: true }));
    if (failure) throw failure;
    yield* ready.splice(0, ready.length);
  }
  p.write(decoder.decode()).close();
  if (failure) throw failure;
  yield* ready.splice(0, ready.length);
}
