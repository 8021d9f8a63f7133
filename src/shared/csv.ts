/**
 * One RFC 4180 cell for every CSV this service writes (batch results and errors, watchlist exports).
 * Text a spreadsheet would run as a formula (=, @, tab, CR, or + / - not followed by a number) is
 * prefixed with ' so that opening a download in Excel or Sheets cannot execute a listed name such as
 * `=HYPERLINK(...)` (CSV injection). Numbers and booleans are written as they are.
 */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = String(value);
  const safe = typeof value === 'string' && (/^[=@\t\r]/.test(text) || /^[+-][^0-9 (]/.test(text)) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
