import sax from 'sax';
import { ListParseError } from './common';

/** A small element tree for one record (an entity), built while streaming the big document. */
export interface XNode {
  name: string;
  attrs: Record<string, string>;
  text: string;
  children: XNode[];
  /** line where the element opened (1-based) */
  line: number;
}

export function child(n: XNode | undefined, name: string): XNode | undefined {
  return n?.children.find((c) => c.name === name);
}
export function children(n: XNode | undefined, name: string): XNode[] {
  return n ? n.children.filter((c) => c.name === name) : [];
}
/** Trimmed text of a child element, undefined when empty or absent. */
export function text(n: XNode | undefined, name?: string): string | undefined {
  const t = (name ? child(n, name) : n)?.text.trim();
  return t ? t : undefined;
}
/** Follow a path of child names: path(n, 'a', 'b') = n/a/b. */
export function at(n: XNode | undefined, ...names: string[]): XNode | undefined {
  let cur = n;
  for (const nm of names) cur = child(cur, nm);
  return cur;
}

/** Strip a namespace prefix ("ns:entity" → "entity"). */
function local(name: string): string {
  const i = name.indexOf(':');
  return i >= 0 ? name.slice(i + 1) : name;
}

/**
 * Stream an XML document and call onRecord for each element whose local name is in recordNames,
 * with that element's subtree. Only one record's tree lives in memory at a time.
 * onRoot receives the attributes of the document element.
 */
export async function streamXmlRecords(
  stream: NodeJS.ReadableStream,
  file: string,
  recordNames: Set<string>,
  onRecord: (node: XNode) => void,
  onRoot?: (attrs: Record<string, string>) => void,
): Promise<void> {
  const parser = sax.createStream(true, { trim: false, position: true });
  const stack: XNode[] = [];
  let depth = 0;
  let failure: Error | undefined;

  parser.on('opentag', (tag) => {
    depth++;
    const attrs: Record<string, string> = {};
    for (const [k, v] of Object.entries(tag.attributes)) attrs[local(k)] = typeof v === 'string' ? v : v.value;
    if (depth === 1) onRoot?.(attrs);
    const name = local(tag.name);
    const line = (parser as unknown as { _parser: { line: number } })._parser.line + 1;
    if (stack.length > 0 || recordNames.has(name)) {
      const node: XNode = { name, attrs, text: '', children: [], line };
      if (stack.length > 0) stack[stack.length - 1].children.push(node);
      stack.push(node);
    }
  });
  const onText = (t: string) => {
    if (stack.length > 0) stack[stack.length - 1].text += t;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    depth--;
    if (stack.length === 0) return;
    const node = stack.pop()!;
    if (stack.length === 0) {
      try {
        onRecord(node);
      } catch (err) {
        failure = err as Error;
        stream.unpipe(parser);
        parser.emit('end');
      }
    }
  });

  await new Promise<void>((resolve, reject) => {
    parser.on('error', (err: Error) => {
      const p = (parser as unknown as { _parser: { line: number; column: number } })._parser;
      reject(new ListParseError(file, `malformed XML: ${err.message.split('\n')[0]}`, p.line + 1, 'xml'));
    });
    parser.on('end', () => (failure ? reject(failure) : resolve()));
    stream.on('error', reject);
    stream.pipe(parser);
  });
}
