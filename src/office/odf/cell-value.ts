/**
 * The value an OpenDocument table cell shows when it carries it only in attributes: shared by the
 * spreadsheet reader (ods) and the presentation reader (odp, for tables and chart data).
 */
import { attr, type XmlElement } from '../package/local-names.js';

/** An ODF number as a spreadsheet's General format shows it: at most 15 significant digits. */
function odfNumber(value: string): string {
  const n = Number(value);
  if (!Number.isFinite(n) || value.trim() === '') return value.trim();
  const s = String(Number(n.toPrecision(15)));
  return s.includes('e') ? s.toUpperCase() : s;
}

/** `PT36H05M09.5S` (an ODF time or duration) as `36:05:09.5`; the input when it is not one. */
function odfTime(value: string): string {
  const m = /^(-)?P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(value.trim());
  if (!m) return value.trim();
  const hours = Number(m[2] ?? 0) * 24 + Number(m[3] ?? 0);
  const two = (v: string | undefined): string => (v ?? '0').replace(/^(\d)(?=\.|$)/, '0$1');
  return `${m[1] ?? ''}${String(hours).padStart(2, '0')}:${two(m[4])}:${two(m[5])}`;
}

/**
 * The value of a cell that carries it only in attributes, with no text paragraph (chart data tables
 * and some generators write cells so): `office:value` by its value type, or the date, time, boolean
 * or string value. Empty when the cell has none.
 */
export function odfCellValue(cell: XmlElement): string {
  const type = attr(cell, 'value-type');
  const value = attr(cell, 'value');
  switch (type) {
    case 'float':
      return value !== undefined ? odfNumber(value) : '';
    case 'percentage':
      return value !== undefined && Number.isFinite(Number(value)) && value.trim() !== ''
        ? `${odfNumber(String(Number(value) * 100))}%`
        : (value ?? '');
    case 'currency': {
      if (value === undefined) return '';
      const currency = attr(cell, 'currency');
      return currency ? `${odfNumber(value)} ${currency}` : odfNumber(value);
    }
    case 'date': {
      const date = attr(cell, 'date-value')?.trim();
      return date ? date.replace(/T00:00(:00(\.0+)?)?$/, '').replace('T', ' ') : '';
    }
    case 'time': {
      const time = attr(cell, 'time-value');
      return time ? odfTime(time) : '';
    }
    case 'boolean': {
      const b = attr(cell, 'boolean-value')?.trim().toLowerCase();
      return b === 'true' || b === '1' ? 'TRUE' : b === 'false' || b === '0' ? 'FALSE' : '';
    }
    case 'string':
      return attr(cell, 'string-value') ?? '';
    default:
      return value !== undefined ? odfNumber(value) : '';
  }
}
