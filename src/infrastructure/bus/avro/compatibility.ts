/**
 * BACKWARD compatibility: a reader using the new schema can read data written with the old one.
 * Checked the way readers will actually do it: build avsc's resolver (fails on a new field
 * without default, an incompatible type change, a renamed record without alias...) and
 * round-trip sample values written with the old schema through it.
 */
import { parseSchema } from './registry';

export function backwardIncompatibility(newSchema: object, oldSchema: object, samples = 20): string | undefined {
  const reader = parseSchema(newSchema, { bigintLongs: false });
  const writer = parseSchema(oldSchema, { bigintLongs: false });
  let resolver;
  try {
    resolver = reader.createResolver(writer);
  } catch (error) {
    return (error as Error).message;
  }
  for (let i = 0; i < samples; i++) {
    const value = writer.random();
    try {
      const decoded = reader.fromBuffer(writer.toBuffer(value), resolver);
      if (!reader.isValid(decoded)) return `a value written with the old schema decodes to an invalid value: ${reader.toString(decoded)}`;
    } catch (error) {
      return `a value written with the old schema cannot be read: ${(error as Error).message}`;
    }
  }
  return undefined;
}
