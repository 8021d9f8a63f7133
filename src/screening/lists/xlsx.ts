import yauzl from 'yauzl';
import sax from 'sax';
import { ListParseError } from './common';
import type { CsvRow } from './csv';

/**
 * A streaming reader for the first worksheet of an .xlsx workbook, yielding rows in the same shape
 * as readCsv so one parser serves a list's CSV and xlsx forms (OFSI publishes ConList as both).
 *
 * An .xlsx is a ZIP of XML parts: the worksheet (`xl/worksheets/sheet1.xml`, the big one) is
 * streamed one row at a time; the shared-string table (`xl/sharedStrings.xml`) is read first,
 * because cells refer to it by index; `xl/styles.xml` (small, through sax) tells which numeric cells
 * are dates. Built on yauzl and sax, already used for the OFAC Enhanced ZIP and the UN XML, rather
 * than a general spreadsheet library: only cell values are needed, never formulas, styles or writing.
 * The two big parts are scanned rather than event-parsed (completeElements): on the real OFSI file
 * (17 MB of XML) that took the list from the slowest to load to a few hundred ms.
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

/**
 * Elements of a machine-written SpreadsheetML part, scanned chunk by chunk: the text is cut after the
 * last complete `</tag>` of each chunk and only complete elements are handed on. The parts OFSI and
 * Excel write are flat and regular (no comments or CDATA inside cells), which a scan handles several
 * times faster than an event parser; anything it does not recognise fails loudly (see the callers).
 */
async function* completeElements(stream: NodeJS.ReadableStream, closeTag: string): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    pending += decoder.decode(chunk, { stream: true });
    const cut = pending.lastIndexOf(closeTag);
    if (cut < 0) continue;
    const end = cut + closeTag.length;
    yield pending.slice(0, end);
    pending = pending.slice(end);
  }
  pending += decoder.decode();
  if (pending) yield pending;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML character and entity references in text (&amp; &#233; &#x4E2D;). */
export function unescapeXml(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (whole, ref: string) => {
    if (ref[0] === '#') return String.fromCodePoint(ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10));
    return ENTITIES[ref] ?? whole;
  });
}

/** The text runs of a string item (`<t>`, rich-text `<r><t>`), phonetic runs (`<rPh>`) left out. */
function itemText(xml: string): string {
  const body = xml.includes('<rPh') ? xml.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '') : xml;
  let out = '';
  for (const m of body.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g)) out += m[1];
  return unescapeXml(out);
}

/** The shared-string table: the text of each `<si>`, in order; checked against the declared count. */
async function sharedStrings(zip: yauzl.ZipFile, entry: yauzl.Entry, file: string): Promise<string[]> {
  const out: string[] = [];
  let declared: string | undefined;
  for await (const part of completeElements(await openEntry(zip, entry), '</si>')) {
    declared ??= /<sst\b[^>]*\buniqueCount="(\d+)"/.exec(part)?.[1];
    for (const m of part.matchAll(/<si\b[^>]*?(?:\/>|>([\s\S]*?)<\/si>)/g)) out.push(m[1] === undefined ? '' : itemText(m[1]));
  }
  if (declared !== undefined && Number(declared) !== out.length) {
    throw new ListParseError(file, `shared-string table declares ${declared} strings, read ${out.length}`, undefined, 'xlsx');
  }
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
  let rowNo = 0;
  let rows = 0;
  for await (const part of completeElements(stream, '</row>')) {
    for (const m of part.matchAll(/<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g)) {
      const r = /\br="(\d+)"/.exec(m[1]);
      rowNo = r ? Number(r[1]) : rowNo + 1;
      rows++;
      const fields: string[] = [];
      for (const c of (m[2] ?? '').matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
        const attrs = c[1];
        const ref = /\br="([A-Z]+)\d*"/.exec(attrs)?.[1];
        const col = ref ? columnIndex(ref) : fields.length;
        const type = /\bt="(\w+)"/.exec(attrs)?.[1] ?? 'n';
        const style = Number(/\bs="(\d+)"/.exec(attrs)?.[1] ?? 0);
        const inner = c[2] ?? '';
        let text: string;
        if (type === 'inlineStr') text = itemText(inner);
        else {
          const v = /<v>([\s\S]*?)<\/v>/.exec(inner)?.[1] ?? '';
          if (type === 's') {
            const i = Number(v);
            if (v === '' || !Number.isInteger(i) || i < 0 || i >= shared.length) {
              throw new ListParseError(file, `cell ${ref ?? ''}${rowNo} refers to shared string "${v}", the table has ${shared.length}`, rowNo, 'xlsx');
            }
            text = shared[i];
          } else if (type === 'b') text = v === '1' ? 'TRUE' : 'FALSE';
          else if (type === 'n' && v !== '' && dateStyles.has(style)) text = serialToDmy(Number(v));
          else text = unescapeXml(v);
        }
        while (fields.length < col) fields.push('');
        fields[col] = text;
      }
      yield { fields, line: rowNo };
    }
  }
  if (rows === 0) throw new ListParseError(file, 'the worksheet has no rows', undefined, 'xlsx');
}
