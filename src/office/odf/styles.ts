/**
 * The style declarations of an OpenDocument style container (`office:styles`,
 * `office:automatic-styles`), as odt, ods and odp look them up: each reader builds its own map from
 * them (text marks, list kinds, hidden tables), by the names its tree uses.
 */
import type { XmlElement } from '../package/xml.js';
import type { OdfNames } from './names.js';

export interface StyleDeclaration {
  el: XmlElement;
  /** `style:style`, `text:list-style`, or another declaration (page layouts, number styles, ...). */
  kind: 'style' | 'list-style' | 'other';
  /** `style:name`. */
  name: string | undefined;
  /** `style:family` (text, paragraph, table, ...). */
  family: string | undefined;
  /** `style:parent-style-name`: the named style this one builds on. */
  parent: string | undefined;
  /** The style's `style:text-properties` element, if it has one. */
  textProperties: XmlElement | undefined;
}

/** The declarations of a style container, in order (none when there is no container). */
export function styleDeclarations(container: XmlElement | undefined, names: OdfNames): StyleDeclaration[] {
  const out: StyleDeclaration[] = [];
  for (const el of container?.children ?? []) {
    if (typeof el === 'string') continue;
    const kind = names.is(el, 'style:style') ? 'style' : names.is(el, 'text:list-style') ? 'list-style' : 'other';
    out.push({
      el,
      kind,
      name: names.attr(el, 'style:name'),
      family: names.attr(el, 'style:family'),
      parent: names.attr(el, 'style:parent-style-name'),
      textProperties: kind === 'style' ? childNamed(el, names, 'style:text-properties') : undefined,
    });
  }
  return out;
}

function childNamed(el: XmlElement, names: OdfNames, qname: string): XmlElement | undefined {
  for (const c of el.children) if (typeof c !== 'string' && names.is(c, qname)) return c;
  return undefined;
}
